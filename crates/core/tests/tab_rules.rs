//! One named test for each rule of research §2–5 (S-1, L-1 … L-18, H-1 … H-13, M-1 … M-12),
//! each built from a literal position id.

use qasab_core::grid::{Grid, Square};
use qasab_core::tab::{self, Preset};
use qasab_core::{EndReason, GameState, Player, Ruleset, Turn};

/// The squares of `p`'s track in order: home row, second row, third row, then the enemy home
/// row (through the branch on the loop track).
fn track(r: &tab::Ruleset, p: Player) -> Vec<Square> {
    let s = r.initial_state();
    let len = Grid::new(r.columns).len();
    let n = usize::from(r.columns);
    let first = if p == Player::One { 0 } else { len - 1 };
    let mut order = vec![Square(first as u8)];
    while order.len() < len {
        let [main, alt] = s.track_destinations(p, *order.last().unwrap(), 1);
        let next = if order.len() == 3 * n {
            alt.or(main)
        } else {
            main
        };
        order.push(next.unwrap());
    }
    order
}

/// A state from the parts of a position id; counters start at turn 1 and captures are implied
/// by the pieces marked `x`. Under a square-tracking reduction a piece with marks but no `v`
/// gets the visited squares of the shortest walk along its track that its marks allow: its
/// first lap, round the loop (when the rows it has seen say so), or through the enemy row
/// (marked `e`); under `square-landed`, its start and its square.
fn st(rules: &str, phase: &str, pending: &str, white: &str, black: &str) -> tab::State {
    let r: tab::Ruleset = rules.parse().unwrap();
    let grid = Grid::new(r.columns);
    let n = usize::from(r.columns);
    let fill = |tokens: &str, p: Player| -> String {
        let order = track(&r, p);
        let span = |a: usize, b: usize| order[a..=b].iter().fold(0u128, |m, sq| m | 1 << sq.0);
        tokens
            .split(',')
            .enumerate()
            .map(|(i, t)| {
                let t = t.trim();
                let Some((sq, marks)) = t.split_once('.') else {
                    return t.to_string();
                };
                if marks.contains('v') {
                    return t.to_string();
                }
                let cur = grid.parse(sq).unwrap();
                let at = order.iter().position(|&q| q == cur).unwrap();
                let v = match r.reduction {
                    tab::Reduction::SquareLanded => (1u128 << order[i].0) | (1u128 << cur.0),
                    tab::Reduction::SquareVisited => {
                        let rows = |m: u128| {
                            (0..4u8)
                                .filter(|&row| {
                                    (0..n).any(|c| m & (1u128 << (usize::from(row) * n + c)) != 0)
                                })
                                .map(|row| char::from(b'1' + row))
                                .collect::<String>()
                        };
                        let first = span(i, at);
                        if marks.contains('e') {
                            if at >= 3 * n {
                                first
                            } else {
                                span(i, 4 * n - 1)
                            }
                        } else if marks.trim_start_matches('c') == rows(first) {
                            first
                        } else {
                            span(i, 3 * n - 1)
                        }
                    }
                    _ => return t.to_string(),
                };
                format!("{t}v{v:x}")
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let xw = white.split(',').filter(|t| t.trim() == "x").count();
    let xb = black.split(',').filter(|t| t.trim() == "x").count();
    // White began: turn 1 is White's, turn 2 Black's (L-4).
    let turn = if phase.contains(":b") { 2 } else { 1 };
    let id = format!(
        "{phase}/{pending}/{}/{}/0.0/{xb}.{xw}/0.0/{turn}.0.0.0/0.0.0.0.0.0.0/-",
        fill(white, Player::One),
        fill(black, Player::Two)
    );
    r.state_from_id(&id).unwrap_or_else(|e| panic!("{e}"))
}

fn moves(s: &tab::State) -> Vec<String> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    v.iter().map(|m| m.to_string()).collect()
}

fn play(s: &mut tab::State, m: &str) {
    let mv = s
        .parse_move(m)
        .unwrap_or_else(|e| panic!("{m}: {e}\nlegal: {:?}", moves(s)));
    s.play_unchecked(mv);
}

fn throw(s: &mut tab::State, v: &str) {
    let t = s.parse_chance(v).unwrap();
    s.apply_chance_unchecked(t);
}

fn at(s: &tab::State, p: Player) -> Vec<String> {
    let g = s.grid();
    s.piece_squares(p)
        .into_iter()
        .map(|x| x.map_or("x".to_string(), |sq| g.name(sq)))
        .collect()
}

const START_W: &str = "A,B,C,D,E,F,G,H,I";
const START_B: &str = "a,b,c,d,e,f,g,h,i";
/// Black's start with piece 9 converted onto k: a side that has captured has moved a piece.
const B_MOVED: &str = "a,b,c,d,e,f,g,h,k.c34";

// ----- S: the sticks -----

#[test]
fn s1_sticks_count_whites_and_one_four_six_throw_again() {
    let mut s = st("tab(opening=normal)", "throw:w", "-", START_W, START_B);
    let mut outs = Vec::new();
    assert_eq!(s.chance_outcomes(&mut outs), 16);
    let w: Vec<(String, u32)> = outs
        .iter()
        .map(|o| (o.outcome.to_string(), o.weight))
        .collect();
    assert_eq!(
        w,
        [
            ("1".into(), 4),
            ("2".into(), 6),
            ("3".into(), 4),
            ("4".into(), 1),
            ("6".into(), 1)
        ]
    );
    for again in ["4", "6", "1"] {
        throw(&mut s, again);
        assert_eq!(
            s.turn(),
            Turn::Chance,
            "after a {again} the player throws again"
        );
    }
    throw(&mut s, "2");
    assert_eq!(
        s.turn(),
        Turn::Player(Player::One),
        "after a 2 the player moves"
    );
    assert_eq!(
        s.pending().iter().map(|t| t.value()).collect::<Vec<_>>(),
        [1, 2, 4, 6]
    );
}

// ----- L: Lane's Tab -----

#[test]
fn l1_board_is_four_rows_of_an_odd_number_of_columns() {
    for n in (7..=29).step_by(2) {
        let r: tab::Ruleset = format!("tab(columns={n})").parse().unwrap();
        assert_eq!(r.initial_state().grid().len(), 4 * n);
    }
    assert!("tab(columns=8)".parse::<tab::Ruleset>().is_err());
    assert!("tab(columns=31)".parse::<tab::Ruleset>().is_err());
    assert_eq!(Preset::Lane.ruleset().columns, 9);
}

#[test]
fn l2_track_turns_at_s_to_the_loop_or_the_enemy_row() {
    // A converted White piece on r with a 2: back to K (the loop) or into a (the enemy row).
    let s = st("tab", "move:w", "2", "x,x,x,x,x,x,x,x,r.c123", B_MOVED);
    assert_eq!(moves(&s), ["2:r-K", "2:r-a"]);
    // Black's mirror image: from R with 2, to k or to A.
    let s = st(
        "tab",
        "move:b",
        "2",
        "A,B,C,D,E,F,G,H,K.c12",
        "x,x,x,x,x,x,x,x,R.c234",
    );
    assert_eq!(moves(&s), ["2:R-A", "2:R-k"]);
}

#[test]
fn l3_every_piece_starts_unconverted_on_its_home_row() {
    let s = tab::Ruleset::default().initial_state();
    assert_eq!(at(&s, Player::One), START_W.split(',').collect::<Vec<_>>());
    assert_eq!(at(&s, Player::Two), START_B.split(',').collect::<Vec<_>>());
    let partial: tab::Ruleset = "tab(pieces=4)".parse().unwrap();
    assert_eq!(
        at(&partial.initial_state(), Player::One),
        ["A", "B", "C", "D"]
    );
    assert!(s.render().contains("w    w    w"));
}

#[test]
fn l4_opening_alternates_single_throws_until_a_tab() {
    let mut s = tab::Ruleset::default().initial_state();
    assert_eq!(s.chance_player(), Some(Player::One));
    throw(&mut s, "4");
    assert!(
        s.position_id().starts_with("open:b"),
        "a 4 gives no extra throw in the opening"
    );
    assert_eq!(s.chance_player(), Some(Player::Two));
    throw(&mut s, "6");
    assert!(s.position_id().starts_with("open:w"));
    throw(&mut s, "1");
    assert!(
        s.position_id().starts_with("throw:w/1/"),
        "the tab is White's first throw: {}",
        s.position_id()
    );
    assert_eq!(s.chance_player(), Some(Player::One));
    throw(&mut s, "3");
    assert_eq!(moves(&s), ["1:I-K"]);
    assert_eq!(
        s.chance_player(),
        None,
        "a player's turn belongs to no thrower"
    );
}

#[test]
fn l5_a_turn_throws_until_a_two_or_three_then_moves() {
    let mut s = st("tab", "throw:w", "-", "x,x,x,x,x,x,x,K.c12,L.c12", B_MOVED);
    throw(&mut s, "6");
    throw(&mut s, "4");
    assert_eq!(s.turn(), Turn::Chance);
    throw(&mut s, "3");
    assert_eq!(s.turn(), Turn::Player(Player::One));
}

#[test]
fn l6_throws_are_played_one_at_a_time_in_any_order() {
    let mut s = st(
        "tab(reduction=off)",
        "move:w",
        "42",
        "x,x,x,x,x,x,x,x,K.c12",
        B_MOVED,
    );
    assert_eq!(moves(&s), ["2:K-M", "4:K-O"]);
    play(&mut s, "4:K-O");
    assert_eq!(
        moves(&s),
        ["2:O-Q"],
        "the same unit may take the other throw too"
    );
    play(&mut s, "2:O-Q");
    assert_eq!(
        s.turn(),
        Turn::Chance,
        "with every throw played the turn passes"
    );
}

#[test]
fn l7_usable_throws_must_be_played_unless_they_only_reduce() {
    // A single converted piece: the 2 must be played, so there is no `end`.
    let s = st("tab", "move:w", "2", "x,x,x,x,x,x,x,x,K.c12", B_MOVED);
    assert_eq!(moves(&s), ["2:K-M"]);
    // A stack whose only move reduces it may decline: `end`.
    let s = st("tab", "move:w", "2", "x,x,x,x,x,x,x,L.c123,L.c123", B_MOVED);
    assert_eq!(moves(&s), ["2:L-N=8", "2:L-N=9", "end"]);
    // Under throw_use=optional, any throw may be left.
    let s = st(
        "tab-modern(columns=9)",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,K.c12",
        B_MOVED,
    );
    assert_eq!(moves(&s), ["2:K-M", "end"]);
}

/// White has thrown a 4 and then a 2. Piece 1 has gone round the loop and piece 2 is on its
/// first lap; they stand together on N. Each throw's only plays move the stack onto a square
/// piece 1 has visited (P with the 2, R with the 4), so each reduces the stack (L-15).
const EXEMPT: &str = "move:w/24/N.c123v7ffffff,N.c12v3c1fe,x,x,x,x,x,x,x/a,b,c,x,x,x,x,x,x/0.0/6.7/0.0/1.0.1.10/10.0.0.0.0.0.0/-";

#[test]
fn l7_an_exempt_throw_is_judged_when_the_move_phase_ends() {
    let r: tab::Ruleset = "tab".parse().unwrap();
    let mut s = r.state_from_id(EXEMPT).unwrap();
    // Both throws only reduce the stack, so neither must be played; but neither can be
    // declined before the move phase ends.
    assert_eq!(
        moves(&s),
        ["2:N-P=1", "2:N-P=2", "4:N-R=1", "4:N-R=2", "end"]
    );
    let e = s.parse_move("decline:2").unwrap_err().to_string();
    assert!(
        e.contains("no throw is declined before the move phase ends (L-7)"),
        "{e}"
    );
    // Reduced to piece 2, alone on R: the 2 now has an ordinary move, which must be played.
    play(&mut s, "4:N-R=2");
    assert_eq!(moves(&s), ["2:R-k"], "the 2 is compulsory: no `end`");
    play(&mut s, "2:R-k");
    assert_eq!(s.turn(), Turn::Chance);
    // Ending at once leaves both throws unplayed.
    let mut s = r.state_from_id(EXEMPT).unwrap();
    play(&mut s, "end");
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(at(&s, Player::One)[..2], ["N", "N"]);
}

#[test]
fn l7_option_compulsory_with_early_decline_gives_up_an_exempt_throw_at_once() {
    let r: tab::Ruleset = "tab(throw_use=compulsory-with-early-decline)"
        .parse()
        .unwrap();
    let mut s = r.state_from_id(EXEMPT).unwrap();
    assert_eq!(
        moves(&s),
        [
            "2:N-P=1",
            "2:N-P=2",
            "4:N-R=1",
            "4:N-R=2",
            "decline:2",
            "decline:4",
            "end"
        ]
    );
    // Declined while it could only reduce, the 2 is gone, even though after the 4 it would
    // have had an ordinary move.
    play(&mut s, "decline:2");
    assert_eq!(moves(&s), ["4:N-R=1", "4:N-R=2", "end"]);
    play(&mut s, "4:N-R=2");
    assert_eq!(s.turn(), Turn::Chance, "the turn ends with the 2 unplayed");
    assert_eq!(at(&s, Player::One)[..2], ["x", "R"]);
}

#[test]
fn l8_tabs_are_banked_once_every_piece_is_converted() {
    let mut s = st("tab", "move:w", "12", "x,x,x,x,x,x,x,x,K.c12", B_MOVED);
    assert_eq!(moves(&s), ["1:K-L", "2:K-M", "bank"]);
    play(&mut s, "bank");
    // A banked tab can be played in any move phase.
    assert_eq!(moves(&s), ["1:K-L", "2:K-M"]);
    play(&mut s, "2:K-M");
    assert_eq!(s.banked()[Player::One], 1);
    assert_eq!(moves(&s), ["1:M-N", "end"]);
    // An unplayed tab is banked at the end of the move phase.
    let mut s = st("tab", "move:w", "1", "x,x,x,x,x,x,x,x,K.c12", B_MOVED);
    assert_eq!(moves(&s), ["1:K-L", "end"]);
    play(&mut s, "end");
    assert_eq!(s.banked()[Player::One], 1);
    // Not while a piece is unconverted.
    let s = st("tab", "move:w", "12", "A,x,x,x,x,x,x,x,K.c12", B_MOVED);
    assert!(!moves(&s).contains(&"bank".to_string()));
    assert!(!moves(&s).contains(&"end".to_string()));
}

#[test]
fn l9c_a_tab_converts_one_piece_one_step_and_may_not_land_on_unconverted_pieces() {
    let s = tab::Ruleset::default().initial_state();
    let s = {
        let mut s = s;
        throw(&mut s, "1");
        throw(&mut s, "2");
        s
    };
    // Only I can convert: H would land on I's unconverted piece; the 2 moves nothing yet.
    assert_eq!(moves(&s), ["1:I-K"]);
    // While a piece is unconverted, a tab must convert if it can (tabs_reserved).
    let s = st("tab", "move:w", "1", "A,B,C,D,E,F,G,H,K.c12", B_MOVED);
    assert_eq!(moves(&s), ["1:H-I"]);
    let s = st(
        "tab(tabs_reserved=false)",
        "move:w",
        "1",
        "A,B,C,D,E,F,G,H,K.c12",
        B_MOVED,
    );
    assert_eq!(moves(&s), ["1:H-I", "1:K-L"]);
    // In place: the tab converts without moving.
    let s = st("tab(conversion=in-place)", "move:w", "1", START_W, START_B);
    assert!(moves(&s).contains(&"1:I".to_string()));
}

#[test]
fn l10_each_piece_enters_the_enemy_row_once() {
    let s = st("tab", "move:w", "2", "x,x,x,x,x,x,x,x,r.ce1234", B_MOVED);
    assert_eq!(
        moves(&s),
        ["2:r-K"],
        "a piece that has been in the enemy row goes round the loop"
    );
    let s = st(
        "tab(enemy_entry=once-while-occupied)",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,r.c123",
        "x,x,x,x,x,x,x,x,n.c234",
    );
    assert_eq!(
        moves(&s),
        ["2:r-K"],
        "Ludii's condition: the enemy home row is empty"
    );
}

#[test]
fn l11_a_piece_in_the_enemy_row_is_frozen_while_its_home_row_is_occupied() {
    let black = "a,b,x,d,e,f,g,h,k.c34";
    let sq = |name: &str| Grid::new(9).parse(name).unwrap();
    let s = st("tab", "move:w", "12", "A,x,x,x,x,x,x,x,c.ce1234", black);
    assert_eq!(moves(&s), ["1:A-B"], "the piece on c is frozen");
    assert_eq!(s.enemy_row_hold(sq("c")), Some(true));
    assert_eq!(s.enemy_row_hold(sq("A")), None, "not in the enemy row");
    assert_eq!(
        s.enemy_row_hold(sq("a")),
        None,
        "Black's piece is in its own home row"
    );
    let s = st("tab", "move:w", "2", "x,x,x,x,x,x,x,x,c.ce1234", black);
    assert_eq!(moves(&s), ["2:c-e"]);
    assert_eq!(s.enemy_row_hold(sq("c")), None);
    let black = "a,b,c,d,e,f,g,x,k.c34";
    let s = st(
        "tab(enemy_row=freeze-exit)",
        "move:w",
        "12",
        "B.c1,x,x,x,x,x,x,x,h.ce1234",
        black,
    );
    assert_eq!(
        moves(&s),
        ["1:B-C", "1:h-i", "2:B-D", "bank"],
        "the piece on h may move along the row but not leave it"
    );
    assert_eq!(s.enemy_row_hold(sq("h")), Some(false));
    let s = st(
        "tab(enemy_row=freeze-exit)",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,h.ce1234",
        black,
    );
    assert_eq!(moves(&s), ["2:h-k"]);
}

#[test]
fn l12_the_enemy_row_is_left_into_the_third_row() {
    let mut s = st(
        "tab",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,i.ce1234",
        "x,x,x,x,x,x,x,x,S.c234",
    );
    assert_eq!(moves(&s), ["2:i-l"]);
    play(&mut s, "2:i-l");
    assert_eq!(at(&s, Player::One)[8], "l");
}

#[test]
fn l13_a_piece_landing_on_its_own_pieces_stacks_with_them() {
    let mut s = st(
        "tab(reduction=off)",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,K.c12,M.c12",
        B_MOVED,
    );
    play(&mut s, "2:K-M");
    assert_eq!(at(&s, Player::One)[7..], ["M", "M"]);
    assert!(s.render().contains("W2"));
}

#[test]
fn l14_a_tab_peels_one_piece_off_a_stack() {
    let s = st(
        "tab(reduction=off)",
        "move:w",
        "1",
        "x,x,x,x,x,x,x,M.c12,M.c12",
        B_MOVED,
    );
    // The whole stack or one piece; the two pieces have the same history, so one peel move.
    assert_eq!(moves(&s), ["1:M-N", "1:M-N^8", "end"]);
    let s = st(
        "tab(reduction=off)",
        "move:w",
        "1",
        "x,x,x,x,x,x,x,M.c12,M.ce1234",
        B_MOVED,
    );
    assert_eq!(moves(&s), ["1:M-N", "1:M-N^8", "1:M-N^9", "end"]);
    let mut s = st(
        "tab(reduction=off,split=dissolve)",
        "move:w",
        "1",
        "x,x,x,x,x,x,x,M.c12,M.c12",
        B_MOVED,
    );
    let m = Grid::new(9).parse("M").unwrap();
    assert!(!s.is_dissolved(m));
    play(&mut s, "1:M*");
    assert!(s.position_id().ends_with("/M"), "{}", s.position_id());
    assert!(s.is_dissolved(m));
}

#[test]
fn l15_a_stack_moving_to_a_square_one_of_its_pieces_visited_is_reduced() {
    // Piece 9 went K..S and k..s and round to K, L; piece 8 only came from H to L (by K).
    let grid = Grid::new(9);
    let vis = |names: &[&str]| {
        names
            .iter()
            .fold(0u128, |m, n| m | 1u128 << grid.parse(n).unwrap().0)
    };
    let v9 = vis(&[
        "I", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "k", "l", "m", "n", "o", "p", "q", "r",
        "s",
    ]);
    let v8 = vis(&["H", "I", "K", "L"]);
    let white = format!("x,x,x,x,x,x,x,L.c12v{v8:x},L.c123v{v9:x}");
    let mut s = st("tab", "move:w", "2", &white, B_MOVED);
    // N was visited by piece 9: the stack is reduced, and the mover picks the survivor.
    assert_eq!(moves(&s), ["2:L-N=8", "2:L-N=9", "end"]);
    play(&mut s, "2:L-N=9");
    assert_eq!(at(&s, Player::One)[7..], ["x", "N"]);
    assert_eq!(s.removed()[Player::One], 1);
    // Under reduction=row-entered the same move stays in row 2: no reduction.
    let s = st(
        "tab(reduction=row-entered)",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,L.c12,L.c123",
        B_MOVED,
    );
    assert_eq!(moves(&s), ["2:L-N"]);
}

#[test]
fn l16_landing_on_enemy_pieces_captures_all_of_them() {
    let mut s = st(
        "tab",
        "move:w",
        "3",
        "x,x,x,x,x,x,x,x,K.c12",
        "x,x,x,x,x,x,N.c234,N.c234,N.c234",
    );
    play(&mut s, "3:K-N");
    assert_eq!(s.scores()[Player::One], 3 + 6);
    assert!(
        matches!(s.turn(), Turn::Over(o) if o.reason == EndReason::Elimination && o.winner == Some(Player::One))
    );
}

#[test]
fn l17_taking_every_enemy_piece_wins_at_once() {
    let mut s = st(
        "tab",
        "move:w",
        "34",
        "x,x,x,x,x,x,x,x,K.c12",
        "x,x,x,x,x,x,x,x,N.c234",
    );
    play(&mut s, "3:K-N");
    let o = s
        .turn()
        .outcome()
        .expect("the game ends at once, with a throw still pending");
    assert_eq!(o.winner, Some(Player::One));
    let mut moves_after = Vec::new();
    s.legal_moves(&mut moves_after);
    assert!(moves_after.is_empty());
}

/// The last piece of White in `tab-modern`, on i2, with Black to play a 4 from h3 onto it.
/// White has captured `w_captured` and Black `b_captured`; White has lost `w_reduced` pieces
/// to reductions (L-15). Black's pieces beyond the one on h3 stand on j3.
fn last_capture(rules: &str, w_captured: u8, b_captured: u8, w_reduced: u8) -> tab::State {
    let black_left = 10 - usize::from(w_captured);
    let mut black = vec!["x"; 10 - black_left];
    black.push("h3.c34");
    black.extend(std::iter::repeat_n("j3.c34", black_left - 1));
    let id = format!(
        "move:b/4/x,x,x,x,x,x,x,x,x,i2.c12/{}/0.0/{w_captured}.{b_captured}/{w_reduced}.0/42.0.1.0/0.0.0.0.0.0.0/-",
        black.join(",")
    );
    let r: tab::Ruleset = rules.parse().unwrap();
    r.state_from_id(&id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// The result once Black has taken White's last piece in [`last_capture`].
fn after_last_capture(
    rules: &str,
    w_captured: u8,
    b_captured: u8,
    w_reduced: u8,
) -> Option<(Option<Player>, EndReason, [u32; 2])> {
    let mut s = last_capture(rules, w_captured, b_captured, w_reduced);
    play(&mut s, "4:h3-i2");
    assert_eq!(s.pieces_on_board()[Player::One], 0);
    result(&s)
}

fn result(s: &tab::State) -> Option<(Option<Player>, EndReason, [u32; 2])> {
    s.turn()
        .outcome()
        .map(|o| (o.winner, o.reason, [o.scores.one, o.scores.two]))
}

#[test]
fn l17_h13_under_most_captures_a_side_without_pieces_at_equal_captures_is_a_draw() {
    // White lost one piece to a reduction, so Black's capture of White's last piece makes the
    // captures 9 to 9: the game ends (H-13 a) and the count decides it, not the survivor.
    assert_eq!(
        after_last_capture("tab-modern(end=most-captures)", 9, 8, 1),
        Some((None, EndReason::Elimination, [9, 9])),
        "the end reason says why the game ended; the captures say who won"
    );
}

#[test]
fn l17_h13_under_most_captures_the_side_without_pieces_can_win_on_captures() {
    // White has captured 8, Black 5; White's other four pieces were lost to reductions.
    // Black takes White's last piece (6 captures) and White, with none left, wins 8 to 6.
    assert_eq!(
        after_last_capture("tab-modern(end=most-captures)", 8, 5, 4),
        Some((Some(Player::One), EndReason::Elimination, [8, 6]))
    );
    // Lane's board: White takes Black's last piece (5 captures), but four of Black's pieces
    // went to reductions and Black has captured 7, so Black wins.
    let id = |rules: &str| {
        let r: tab::Ruleset = rules.parse().unwrap();
        r.state_from_id("move:w/3/x,x,x,x,x,x,x,x,K.c12/x,x,x,x,x,x,x,x,N.c234/0.0/4.7/1.4/41.0.1.0/0.0.0.0.0.0.0/-")
            .unwrap()
    };
    let mut s = id("tab(end=most-captures,reduction=row-entered)");
    play(&mut s, "3:K-N");
    assert_eq!(
        result(&s),
        Some((Some(Player::Two), EndReason::Elimination, [5, 7]))
    );
    let mut s = id("tab(reduction=row-entered)");
    play(&mut s, "3:K-N");
    assert_eq!(
        result(&s),
        Some((Some(Player::One), EndReason::Elimination, [5, 7])),
        "under end=elimination the survivor wins"
    );
}

#[test]
fn l17_under_elimination_the_survivor_wins_whatever_the_captures() {
    // The same capture as above, under the modern page's own end (L-17): Black, who took
    // White's last piece, wins although White has captured more.
    assert_eq!(
        after_last_capture("tab-modern", 8, 5, 4),
        Some((Some(Player::Two), EndReason::Elimination, [8, 6]))
    );
    assert_eq!(
        after_last_capture("tab-modern", 9, 8, 1),
        Some((Some(Player::Two), EndReason::Elimination, [9, 9]))
    );
}

#[test]
fn l17_h13_an_ended_position_names_the_winner_its_end_rule_gives() {
    // A position id of a finished game is checked against the rules: at 9 captures each under
    // end=most-captures an elimination is a draw, and under end=elimination Black's win.
    let id = |winner: &str| {
        format!(
            "over:elimination:{winner}/-/x,x,x,x,x,x,x,x,x,x/x,x,x,x,x,x,x,x,x,i2.c234/0.0/9.9/1.0/42.0.1.1/0.0.0.0.0.0.1/-"
        )
    };
    let most: tab::Ruleset = "tab-modern(end=most-captures)".parse().unwrap();
    let elim: tab::Ruleset = "tab-modern".parse().unwrap();
    assert!(most.state_from_id(&id("-")).is_ok());
    assert!(elim.state_from_id(&id("b")).is_ok());
    let e = most.state_from_id(&id("b")).unwrap_err().to_string();
    assert!(
        e.contains("this position gives no winner, not black"),
        "{e}"
    );
    let e = elim.state_from_id(&id("-")).unwrap_err().to_string();
    assert!(
        e.contains("this position gives black, not no winner"),
        "{e}"
    );
}

#[test]
fn l18_safety_limits_end_the_game_as_truncated() {
    let r: tab::Ruleset = "tab(no_progress=3,reduction=off)".parse().unwrap();
    let id =
        format!("move:w/2/x,x,x,x,x,x,x,x,K.c12/{B_MOVED}/0.0/0.8/0.0/9.2.0.0/0.0.0.0.0.0.0/-");
    let mut s = r.state_from_id(&id).unwrap();
    play(&mut s, "2:K-M");
    let o = s
        .turn()
        .outcome()
        .expect("the third turn without progress stops the game");
    assert_eq!(o.reason, EndReason::NoProgress);
    assert!(o.is_truncated());
    assert_eq!(o.winner, None);
    let r: tab::Ruleset = "tab(turn_cap=9,limit_result=material,reduction=off)"
        .parse()
        .unwrap();
    let mut s = r.state_from_id(&id).unwrap();
    play(&mut s, "2:K-M");
    let o = s.turn().outcome().unwrap();
    assert_eq!(
        (o.reason, o.winner),
        (EndReason::TurnCap, Some(Player::Two))
    );
}

#[test]
fn l18_a_turn_that_has_thrown_throw_cap_times_stops_the_game() {
    let white = "x,x,x,x,x,x,x,K.c12,L.c12";
    // A 1 and a 6 pending: with throw_cap=3 the third throw is the last the turn may take.
    let mut s = st("tab(throw_cap=3)", "throw:w", "16", white, B_MOVED);
    throw(&mut s, "2");
    assert_eq!(
        s.turn(),
        Turn::Player(Player::One),
        "a throw that gives no other ends the throwing as usual"
    );
    let mut s = st("tab(throw_cap=3)", "throw:w", "16", white, B_MOVED);
    throw(&mut s, "4");
    let o = s
        .turn()
        .outcome()
        .expect("a third throw that would give a fourth stops the game");
    assert_eq!((o.reason, o.winner), (EndReason::TurnCap, None));
    assert!(o.is_truncated());
    let mut s = st("tab(throw_cap=4)", "throw:w", "16", white, B_MOVED);
    throw(&mut s, "4");
    assert_eq!(s.turn(), Turn::Chance, "throw_cap=4 allows a fourth throw");
    throw(&mut s, "6");
    assert!(s.turn().outcome().is_some());
    // The default allows 100 throws.
    let mut s = st("tab", "throw:w", &"6".repeat(98), white, B_MOVED);
    throw(&mut s, "6");
    assert_eq!(s.turn(), Turn::Chance);
    throw(&mut s, "6");
    assert_eq!(
        s.turn().outcome().map(|o| o.reason),
        Some(EndReason::TurnCap)
    );
}

#[test]
fn l18_with_interleaved_throws_the_cap_counts_the_games_throws() {
    // turn_cap=2, throw_cap=2: a throw that gives another stops the game from the game's
    // fourth throw on.
    let r: tab::Ruleset = "tab(throw_timing=interleaved,turn_cap=2,throw_cap=2,reduction=off)"
        .parse()
        .unwrap();
    assert_eq!(r.interleaved_throw_limit(), 4);
    for (throws, stops) in [(3, false), (4, true)] {
        let id = format!(
            "move:w+/6/x,x,x,x,x,x,x,x,K.c12/{B_MOVED}/0.0/0.8/0.0/1.0.0.0/{throws}.0.0.0.0.0.0/-"
        );
        let mut s = r.state_from_id(&id).unwrap();
        let first = moves(&s)[0].clone();
        play(&mut s, &first);
        if stops {
            let o = s
                .turn()
                .outcome()
                .expect("the game's fourth throw was its last");
            assert_eq!((o.reason, o.winner), (EndReason::TurnCap, None));
        } else {
            assert_eq!(s.turn(), Turn::Chance, "the 6 gives another throw");
        }
    }
}

// ----- H: at-Tâb wa-d-Dukk after Hyde -----

const H13_W: &str = "a1,b1,c1,d1,e1,f1,g1,h1,i1,j1,k1,l1,m1";
const H13_B: &str = "m4,l4,k4,j4,i4,h4,g4,f4,e4,d4,c4,b4,a4";
/// Black's start with piece 13 unlocked onto a3.
const H13_B_MOVED: &str = "m4,l4,k4,j4,i4,h4,g4,f4,e4,d4,c4,b4,a3.c34";

#[test]
fn h1_boards_of_13_19_21_or_29_columns() {
    for n in [13, 19, 21, 29] {
        let r: tab::Ruleset = format!("tab-hyde(columns={n})").parse().unwrap();
        let s = r.initial_state();
        assert_eq!(s.pieces_on_board(), qasab_core::ByPlayer::new(n, n));
    }
    assert!("tab-hyde(columns=15)".parse::<tab::Ruleset>().is_err());
}

#[test]
fn h2_pieces_fill_the_outer_rows_locked() {
    let s = Preset::Hyde.ruleset().initial_state();
    assert_eq!(at(&s, Player::One).join(","), H13_W);
    assert_eq!(at(&s, Player::Two).join(","), H13_B);
    assert!(s.render().contains("w    w"));
}

#[test]
fn h3_the_same_four_sticks() {
    let s = Preset::Hyde.ruleset().initial_state();
    let mut outs = Vec::new();
    assert_eq!(s.chance_outcomes(&mut outs), 16);
    assert_eq!(
        outs.iter().map(|o| o.weight).collect::<Vec<_>>(),
        [4, 6, 4, 1, 1]
    );
}

#[test]
fn h4_all_throws_first_then_every_usable_one_is_played() {
    let mut s = Preset::Hyde.ruleset().initial_state();
    throw(&mut s, "1");
    throw(&mut s, "4");
    throw(&mut s, "2");
    assert_eq!(moves(&s), ["1:m1-m2"]);
    play(&mut s, "1:m1-m2");
    // No `end`: the 4 and the 2 must be played while they can be.
    assert_eq!(moves(&s), ["2:m2-k2", "4:m2-i2"]);
}

#[test]
fn h5_ordinary_turns_from_the_start_and_nothing_moves_before_a_one() {
    let mut s = Preset::Hyde.ruleset().initial_state();
    assert_eq!(s.turn(), Turn::Chance);
    throw(&mut s, "2");
    assert_eq!(
        s.turn(),
        Turn::Chance,
        "White's 2 moves nothing, so Black throws"
    );
    assert!(s.position_id().starts_with("throw:b"));
}

#[test]
fn h6_a_one_unlocks_a_piece_and_moves_it_one_step() {
    let mut s = st("tab-hyde", "move:w", "1", H13_W, H13_B);
    assert_eq!(moves(&s), ["1:m1-m2"]);
    play(&mut s, "1:m1-m2");
    assert!(s.render().contains('W'));
}

#[test]
fn h7_pieces_may_not_pass_one_another_in_the_home_row() {
    // Piece 11 was captured on k1, and piece 10 unlocked into its place: l1 and m1 (locked)
    // stand in front of it, and it cannot pass them inside the home row.
    let w = "a1,b1,c1,d1,e1,f1,g1,h1,i1,k1.c1,x,l1,m1";
    let s = st("tab-hyde", "move:w", "13", w, H13_B_MOVED);
    assert_eq!(moves(&s), ["1:i1-j1", "1:m1-m2"]);
    let s = st("tab-hyde(passing=free)", "move:w", "13", w, H13_B_MOVED);
    assert_eq!(moves(&s), ["1:i1-j1", "1:m1-m2", "3:k1-m2"]);
}

#[test]
fn h8_the_one_way_track_ends_in_the_enemy_row() {
    // b4 is one square from the end of White's track: a 3 cannot be played, a 1 can.
    let s = st(
        "tab-hyde",
        "move:w",
        "13",
        "x,x,x,x,x,x,x,x,x,x,x,x,b4.ce1234",
        "x,x,x,x,x,x,x,x,x,x,x,x,a2.c234",
    );
    assert_eq!(moves(&s), ["1:b4-a4"]);
}

#[test]
fn h9_kings_form_only_in_the_middle_rows() {
    let mut s = st(
        "tab-hyde",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,x,x,x,k2.c12,m2.c12",
        H13_B_MOVED,
    );
    play(&mut s, "2:m2-k2");
    assert!(s.render().contains("W2"), "a king of two on k2");
    // Landing on an own piece in the enemy row is not allowed.
    let s = st(
        "tab-hyde",
        "move:w",
        "1",
        "x,x,x,x,x,x,x,x,x,x,x,l4.ce1234,m4.ce1234",
        "x,x,x,x,x,x,x,x,x,x,x,x,a2.c234",
    );
    assert!(
        !moves(&s).contains(&"1:m4-l4".to_string()),
        "{:?}",
        moves(&s)
    );
}

#[test]
fn h10_a_throw_smaller_than_a_king_detaches_that_many_pieces() {
    let s = st(
        "tab-hyde",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,x,x,k2.c12,k2.c12,k2.c12",
        H13_B_MOVED,
    );
    // The whole king, or two of its (identical) pieces.
    assert_eq!(moves(&s), ["2:k2-i2", "2:k2-i2^11,12"]);
}

#[test]
fn h11_a_capture_removes_the_enemy_unit_and_scores_its_pieces() {
    let mut s = st(
        "tab-hyde",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,x,x,x,x,k2.c12",
        "x,x,x,x,x,x,x,x,x,x,x,i2.c234,i2.c234",
    );
    play(&mut s, "2:k2-i2");
    assert_eq!(s.scores()[Player::One], 11 + 2);
}

#[test]
fn h12_a_piece_in_the_opponents_row_moves_only_if_no_other_piece_can() {
    let s = st(
        "tab-hyde",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,x,x,x,k2.c12,g4.ce1234",
        H13_B_MOVED.replace("g4", "x").as_str(),
    );
    assert_eq!(
        moves(&s),
        ["2:k2-i2"],
        "the piece on g4 waits while k2 can use the 2"
    );
    let s = st(
        "tab-hyde",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,x,x,x,x,g4.ce1234",
        H13_B_MOVED.replace("g4", "x").as_str(),
    );
    assert_eq!(moves(&s), ["2:g4-e4"]);
}

#[test]
fn h13_the_game_ends_when_no_capture_is_possible_and_most_captures_wins() {
    let mut s = st(
        "tab-hyde",
        "move:w",
        "1",
        "x,x,x,x,x,x,x,x,x,x,x,x,m3.c123",
        "x,x,x,x,x,x,x,x,x,x,x,x,l1.ce1234",
    );
    play(&mut s, "1:m3-m4");
    let o = s
        .turn()
        .outcome()
        .expect("every piece stands in its enemy's home row");
    assert_eq!(o.reason, EndReason::NoMoreCaptures);
    assert_eq!(o.winner, None, "12 captures each");
}

// ----- M: the modern 4x10 page -----

/// Black's start on the modern board with piece 10 converted onto a3.
const M10_B_MOVED: &str = "j4,i4,h4,g4,f4,e4,d4,c4,b4,a3.c34";

#[test]
fn m1_a_four_by_ten_board_with_ten_pieces_each() {
    let s = Preset::Modern.ruleset().initial_state();
    assert_eq!(s.grid().columns(), 10);
    assert_eq!(s.pieces_on_board(), qasab_core::ByPlayer::new(10, 10));
}

#[test]
fn m2_the_throws_of_four_dice_or_sticks() {
    let s = Preset::Modern.ruleset().initial_state();
    let mut outs = Vec::new();
    assert_eq!(s.chance_outcomes(&mut outs), 16);
}

#[test]
fn m3_the_first_player_to_throw_a_tab_begins() {
    let mut s = Preset::Modern.ruleset().initial_state();
    throw(&mut s, "3");
    throw(&mut s, "1");
    assert!(s.position_id().starts_with("throw:b/1/"));
}

#[test]
fn m4_a_tab_must_activate_a_bead_while_any_is_inactive() {
    let s = st(
        "tab-modern",
        "move:w",
        "1",
        "a1,b1,c1,d1,e1,f1,g1,h1,i1,j2.c12",
        M10_B_MOVED,
    );
    assert_eq!(moves(&s), ["1:i1-j1", "end"]);
}

#[test]
fn m5_a_player_may_choose_not_to_move() {
    let s = st(
        "tab-modern",
        "move:w",
        "3",
        "x,x,x,x,x,x,x,x,x,j2.c12",
        M10_B_MOVED,
    );
    assert_eq!(moves(&s), ["3:j2-g2", "end"]);
}

#[test]
fn m6_beads_circle_the_middle_rows_or_enter_the_opponents_row() {
    let s = st(
        "tab-modern",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,x,i3.c123",
        M10_B_MOVED,
    );
    assert_eq!(moves(&s), ["2:i3-j2", "2:i3-j4", "end"]);
}

#[test]
fn m7_a_bead_leaves_the_opponents_row_only_when_its_own_row_is_empty() {
    // j1 keeps White's row occupied: the bead on b4 may move along the row but not leave it.
    let black = "x,x,x,x,x,x,x,x,x,e2.c234";
    let s = st(
        "tab-modern",
        "move:w",
        "1",
        "x,x,x,x,x,x,x,x,j1.c1,b4.ce1234",
        black,
    );
    assert_eq!(moves(&s), ["1:j1-j2", "1:b4-a4", "end"]);
    let s = st(
        "tab-modern",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,j1.c1,b4.ce1234",
        black,
    );
    assert_eq!(moves(&s), ["2:j1-i2", "end"]);
    let s = st(
        "tab-modern",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,b4.ce1234,j2.c12",
        black,
    );
    assert_eq!(moves(&s), ["2:j2-h2", "2:b4-a3", "end"]);
}

#[test]
fn m8_beads_stack_and_split_only_with_a_tab() {
    let s = st(
        "tab-modern",
        "move:w",
        "1",
        "x,x,x,x,x,x,x,x,g2.c12,g2.c12",
        M10_B_MOVED,
    );
    assert_eq!(moves(&s), ["1:g2-f2", "1:g2-f2^9", "end"]);
    let s = st(
        "tab-modern",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,g2.c12,g2.c12",
        M10_B_MOVED,
    );
    assert_eq!(moves(&s), ["2:g2-e2", "end"]);
}

#[test]
fn m9_a_stack_going_back_to_the_second_row_or_leaving_the_opponents_row_is_reduced() {
    let s = st(
        "tab-modern",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,i3.c123,i3.c123",
        M10_B_MOVED,
    );
    assert_eq!(moves(&s), ["2:i3-j2=9", "2:i3-j4", "end"]);
    let s = st(
        "tab-modern",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,b4.ce1234,b4.ce1234",
        "x,x,x,x,x,x,x,x,x,g2.c234",
    );
    assert_eq!(moves(&s), ["2:b4-a3=9", "end"]);
}

#[test]
fn m10_landing_on_a_stack_captures_it() {
    let mut s = st(
        "tab-modern",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,x,j2.c12",
        "x,x,x,x,x,x,x,x,h2.c234,h2.c234",
    );
    play(&mut s, "2:j2-h2");
    assert_eq!(s.pieces_on_board()[Player::Two], 0);
}

#[test]
fn m11_beads_never_return_to_their_row() {
    let s = st(
        "tab-modern",
        "move:w",
        "6",
        "x,x,x,x,x,x,x,x,x,b2.c12",
        M10_B_MOVED,
    );
    assert_eq!(moves(&s), ["6:b2-e3", "end"]);
}

#[test]
fn m12_capturing_every_bead_wins() {
    let mut s = st(
        "tab-modern",
        "move:w",
        "2",
        "x,x,x,x,x,x,x,x,x,j2.c12",
        "x,x,x,x,x,x,x,x,x,h2.c234",
    );
    play(&mut s, "2:j2-h2");
    assert_eq!(
        s.turn().outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Player::One), EndReason::Elimination))
    );
}

#[test]
fn throw_destinations_are_track_destinations_for_each_throw() {
    for name in ["tab", "tab-hyde", "tab-modern"] {
        let rules: tab::Ruleset = name.parse().unwrap();
        let s = rules.initial_state();
        for p in [Player::One, Player::Two] {
            for from in s.grid().squares() {
                let all = s.throw_destinations(p, from);
                for (t, dests) in qasab_core::sticks::Throw::ALL.into_iter().zip(all) {
                    assert_eq!(
                        dests,
                        s.track_destinations(p, from, t.value()),
                        "{name} {from:?}"
                    );
                }
            }
        }
        assert_eq!(
            s.throw_destinations(Player::One, Square(200)),
            [[None; 2]; 5]
        );
    }
}

#[test]
fn occupied_is_the_squares_with_a_unit() {
    for name in ["tab", "tab-hyde", "tab-modern", "tab(columns=29)"] {
        let rules: tab::Ruleset = name.parse().unwrap();
        let mut s = rules.initial_state();
        let (mut moves, mut outs) = (Vec::new(), Vec::new());
        // A fixed walk through a game: the k-th choice takes option (7k + 3) mod n.
        for k in 0..400usize {
            for p in [Player::One, Player::Two] {
                let expected: u128 = s
                    .grid()
                    .squares()
                    .filter(|&sq| s.unit_at(sq).is_some_and(|(o, _)| o == p))
                    .map(|sq| 1u128 << sq.0)
                    .sum();
                assert_eq!(s.occupied(p), expected, "{name} after {k} steps");
            }
            match s.turn() {
                Turn::Over(_) => break,
                Turn::Chance => s.apply_picked_chance(&mut outs, |o| (7 * k + 3) % o.len()),
                Turn::Player(_) => s.play_picked(&mut moves, |n| (7 * k + 3) % n),
            }
        }
    }
}

// ---- What a person following the game is told ------------------------------------------------

/// A play typed with Lane's letters in the wrong case is explained with the move meant.
#[test]
fn a_play_typed_in_the_wrong_case_names_the_move_meant() {
    let r: tab::Ruleset = "tab".parse().unwrap();
    let mut s = r.initial_state();
    throw(&mut s, "1");
    throw(&mut s, "2");
    assert_eq!(moves(&s), ["1:I-K"]);
    for typed in ["i-k", "1:i-k", "1:I-k", "i-K"] {
        let e = s.parse_move(typed).unwrap_err().to_string();
        assert!(
            e.contains(
                "did you mean 1:I-K? capital letters name the squares of White's half of the board (A-I, K-S), small letters Black's (k-s, a-i)"
            ),
            "{typed}: {e}"
        );
        assert_eq!(e.lines().count(), 1);
    }
    // Illegal in either case: no guess.
    let e = s.parse_move("1:H-K").unwrap_err().to_string();
    assert!(!e.contains("did you mean"), "{e}");
    let e = s.parse_move("1:h-k").unwrap_err().to_string();
    assert!(!e.contains("did you mean"), "{e}");
}

/// The opening throws are labelled; a throw that cannot be used, and throws left over after a
/// play, are said so, with the reason when it is plain.
#[test]
fn narration_names_opening_throws_and_throws_that_cannot_be_used() {
    let r: tab::Ruleset = "tab".parse().unwrap();
    let mut s = r.initial_state();
    let t = |v: &str| s_throw(v);
    assert_eq!(
        s.narrate_chance(t("2")),
        "white throws 2 (itneyn) to decide who begins: not a tab (whoever first throws a tab begins, L-4)"
    );
    throw(&mut s, "2");
    assert_eq!(
        s.narrate_chance(t("3")),
        "black throws 3 (telateh) to decide who begins: not a tab"
    );
    assert_eq!(s.narrate_chance(t("1")), "black throws 1 (tab), and begins");
    throw(&mut s, "1");
    throw(&mut s, "2");
    play(&mut s, "1:i-k");
    play(&mut s, "2:k-m");
    // White's pieces all wait for a tab: a 2 ends his turn unused; a 4 throws again.
    assert_eq!(
        s.narrate_chance(t("2")),
        "white throws 2 (itneyn); white cannot use the 2: every white piece still waits for a tab to convert it (L-9c)"
    );
    assert_eq!(s.narrate_chance(t("4")), s.describe_chance(t("4")));
    // Black plays the 6; the 3 left has no play.
    let mut s = r
        .state_from_id("move:b/36/A,B,C,D,I.c1v1f0,x,x,R.c12v3fd80,R.c12v3fd00/a,b,c,d,e,f,g,h,S.c234vffffe00/0.0/0.2/0.0/8.1.7.46/22.3.6.0.0.0.0/-")
        .unwrap();
    let m = s.parse_move("6:S-F").unwrap();
    assert_eq!(
        s.narrate_move(m),
        "moves the piece from S to F with a 6; black cannot use the 3: no black unit can move with it"
    );
    s.play_unchecked(m);
    assert_eq!(s.turn(), Turn::Chance, "the turn has passed");
}

fn s_throw(v: &str) -> qasab_core::sticks::Throw {
    v.parse().unwrap()
}
