//! One test per Ludii rule of the `tab-ludii` and `tab-hyde-ludii` presets (ludii-rules.md),
//! each from a literal position written as a position id.
//!
//! Tab ids on 7 columns list White's home-track counts (a1..g1, then g2..a2), White's
//! enemy-track counts (a3..g3, g4..a4, a3..g3), and Black's (g4..a4, a3..g3; g2..a2, a1..g1,
//! g2..a2).

use qasab_core::sticks::Throw;
use qasab_core::tab_ludii::{Move, Ruleset, State};
use qasab_core::{EndReason, GameState, Player, Ruleset as _, Turn};

fn rules(text: &str) -> Ruleset {
    text.parse().unwrap()
}

fn at(rules_text: &str, id: &str) -> State {
    rules(rules_text)
        .state_from_id(id)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn throw(v: u8) -> Throw {
    Throw::from_value(v).unwrap()
}

/// The legal moves after throwing `v`, in notation.
fn moves_after(s: &State, v: u8) -> Vec<String> {
    let mut s = *s;
    s.apply_chance_unchecked(throw(v));
    let mut m = Vec::new();
    s.legal_moves(&mut m);
    m.iter().map(|m| m.to_string()).collect()
}

/// Throws `v` and plays `text`.
fn play(s: &mut State, v: u8, text: &str) {
    s.apply_chance_unchecked(throw(v));
    let m = s.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    s.try_play(m).unwrap();
}

/// A Tab position on 7 columns with default track counts for White (home row and a3..g3 first
/// indices as given).
const TAB7_START: &str =
    "W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21";

// ---- S-1: the throw -------------------------------------------------------------------------

#[test]
fn throws_weigh_4_6_4_1_1_of_16_and_follow_the_stick_bias() {
    let s = Ruleset::default().initial_state();
    let mut outs = Vec::new();
    assert_eq!(s.chance_outcomes(&mut outs), 16);
    let w: Vec<(u8, u32)> = outs.iter().map(|o| (o.outcome.value(), o.weight)).collect();
    assert_eq!(w, vec![(1, 4), (2, 6), (3, 4), (4, 1), (6, 1)]);
    let biased = rules("tab-hyde-ludii(p_white=9/16)").initial_state();
    let total = biased.chance_outcomes(&mut outs);
    assert_eq!(total, 65536);
    assert_eq!(outs.iter().map(|o| o.weight).sum::<u32>(), total);
    // No white side (the 6) has weight 7^4.
    assert_eq!(outs[4].weight, 7u32.pow(4));
}

// ---- Tab.lud ---------------------------------------------------------------------------------

#[test]
fn opening_allows_only_passes_and_4_or_6_give_no_extra_throw() {
    let s = at("tab-ludii", TAB7_START);
    assert_eq!(s, Ruleset::default().initial_state());
    for v in [2, 3, 4, 6] {
        assert_eq!(moves_after(&s, v), vec!["pass"]);
        let mut t = s;
        play(&mut t, v, "pass");
        assert_eq!(t.turn(), Turn::Chance);
        assert_eq!(
            t.mover(),
            Player::Two,
            "after a {v} in the opening Black throws"
        );
        assert!(!t.in_main_phase());
    }
}

#[test]
fn first_1_is_a_pass_gives_another_throw_and_starts_the_main_phase_for_both() {
    let mut s = Ruleset::default().initial_state();
    assert_eq!(moves_after(&s, 1), vec!["pass"]);
    play(&mut s, 1, "pass");
    assert!(s.in_main_phase());
    assert_eq!(s.mover(), Player::One, "the 1 gives White another throw");
    // White's home track: along row 1, then back along row 2 (e1 + 3 = g2).
    assert_eq!(
        moves_after(&s, 3),
        vec![
            "3:a1-d1", "3:b1-e1", "3:c1-f1", "3:d1-g1", "3:e1-g2", "3:f1-f2", "3:g1-e2"
        ]
    );
    play(&mut s, 2, "2:g1-f2");
    // Black is in the main phase too: its home track runs g4..a4 then a3..g3.
    assert_eq!(moves_after(&s, 2)[0], "2:a4-b3");
}

#[test]
fn the_middle_loop_turns_from_the_end_of_row_3_back_to_row_2() {
    // White on c2 and f3; Black keeps its home row.
    let id =
        "7/2,W,4/5,W,1/B,B,B,B,B,B,B/white/main/9,20/0,5/0x7,0,0,0,0,1,0,0/0x5,1,0x15/1x7,0x7/0x21";
    let s = at("tab-ludii", id);
    // c2 + 4 = row 2 to a2, then a3, b3; f3 + 4: g3, then g2, f2, e2 along the loop; and
    // f3 + 4 on the enemy track: g3, g4, f4, e4.
    assert_eq!(moves_after(&s, 4), vec!["4:c2-b3", "4:f3-e2", "4:f3-e4"]);
}

#[test]
fn a_destination_reached_along_two_tracks_is_one_move() {
    // White's piece on e2 is counted on its home track, so the home track and the middle loop
    // both lead to c2: Ludii lists the move twice, we list it once.
    let id = "7/4,W,2/7/B,B,B,B,B,B,B/white/main/9,20/0,6/0x7,0,0,1,0,0,0,0/0x21/1x7,0x7/0x21";
    let s = at("tab-ludii", id);
    assert_eq!(moves_after(&s, 2), vec!["2:e2-c2"]);
}

#[test]
fn entering_the_enemy_row_needs_an_enemy_piece_in_it() {
    let black_home = "B,B,B,B,B,B,B";
    let id = |row4: &str, row2: &str, black_counts: &str| {
        format!("7/{row2}/5,W,1/{row4}/white/main/9,20/0,6/0x14/0x5,1,0x15/{black_counts}")
    };
    let s = at("tab-ludii", &id(black_home, "7", "1x7,0x7/0x21"));
    assert_eq!(moves_after(&s, 3), vec!["3:f3-f2", "3:f3-f4"]);
    // Black's pieces all left home (a stack of 7 on c2, Black's enemy track index 4): the
    // enemy track is closed.
    let s = at("tab-ludii", &id("7", "2,B7,4", "0x14/0x4,7,0x16"));
    assert_eq!(moves_after(&s, 3), vec!["3:f3-f2"]);
}

#[test]
fn pieces_in_the_enemy_home_row_are_never_frozen() {
    // White on d4 (enemy track index 10) while Black still has pieces at home.
    let id = "7/7/7/B,B,B,W,B,B,B/white/main/9,20/1,6/0x14/0x10,1,0x10/1,1,1,0,1,1,1,0x7/0x21";
    let s = at("tab-ludii", id);
    // d4 + 2: c4 (a capture); d4 + 6: a4, then back onto row 3: a3, b3, c3.
    assert_eq!(moves_after(&s, 2), vec!["2:d4-b4"]);
    assert_eq!(moves_after(&s, 6), vec!["6:d4-c3"]);
}

#[test]
fn bookkeeping_keeps_a_piece_that_came_back_from_entering_again() {
    // White on d4, counted at enemy index 10, walks back onto row 3 with a 6.
    let id = "7/7/7/B,B,B,W,B,B,B/white/main/9,20/1,6/0x14/0x10,1,0x10/1,1,1,0,1,1,1,0x7/0x21";
    let mut s = at("tab-ludii", id);
    play(&mut s, 6, "6:d4-c3");
    let (_, enemy) = s.track_counts(Player::One);
    assert_eq!(
        (enemy[2], enemy[16]),
        (0, 1),
        "counted at c3's second index"
    );
    // The 6 gives White another throw. From c3 a 6 would enter Black's row along the enemy track from the first index (f4);
    // the piece is counted only at the second index, whose track ends first: only the loop.
    assert_eq!(moves_after(&s, 6), vec!["6:c3-f2"]);
    // A piece counted at c3's first index does enter.
    let fresh =
        "7/7/2,W,4/B,B,B,B,B,B,1/white/main/9,20/1,6/0x14/0,0,1,0x18/0,1,1,1,1,1,1,0x7/0x21";
    let s = at("tab-ludii", fresh);
    assert_eq!(moves_after(&s, 6), vec!["6:c3-f2", "6:c3-f4"]);
}

#[test]
fn bookkeeping_counts_a_stack_arriving_from_off_a_track_as_one() {
    // A stack of 2 on a2 (home index 13) steps onto a3 along the middle loop.
    let id = "7/W2,6/7/B,B,B,B,B,B,B/white/main/9,20/0,5/0x13,2/0x21/1x7,0x7/0x21";
    let mut s = at("tab-ludii", id);
    play(&mut s, 1, "1:a2-a3");
    let (home, enemy) = s.track_counts(Player::One);
    assert_eq!(home[13], 0, "the stack's 2 leave the home track");
    assert_eq!(enemy[0], 1, "one, not 2, arrives on the enemy track");
    // Moving on along row 3 takes the whole stack's size from that 1.
    play(&mut s, 2, "2:a3-c3");
    let (_, enemy) = s.track_counts(Player::One);
    assert_eq!((enemy[0], enemy[2]), (-1, 2));
}

#[test]
fn capture_removes_the_whole_stack_and_one_from_each_track_index() {
    // White on a3 (enemy index 0); a Black stack of 2 on c3 (Black's home index 9).
    let id =
        "7/7/W,1,B2,4/B,B,B,B,B,2/white/main/9,20/0,6/0x14/1,0x20/0,0,1,1,1,1,1,0,0,2,0x4/0x21";
    let mut s = at("tab-ludii", id);
    play(&mut s, 2, "2:a3-c3");
    assert_eq!(s.unit_at(16), Some((Player::One, 1)));
    assert_eq!(s.scores().one, 2, "both pieces of the stack are captured");
    let (black_home, _) = s.track_counts(Player::Two);
    assert_eq!(
        black_home[9], 1,
        "Ludii subtracts one, not the stack's size"
    );
}

#[test]
fn own_pieces_stack_and_stacks_move_whole() {
    // White's single piece on b2 and its stack of 2 on c2 (home indices 12 and 11).
    let id = "7/1,W,W2,4/7/B,B,B,B,B,B,B/white/main/9,20/0,4/0x11,2,1,0/0x21/1x7,0x7/0x21";
    let mut s = at("tab-ludii", id);
    play(&mut s, 1, "1:c2-b2");
    assert_eq!(s.unit_at(8), Some((Player::One, 3)), "stacked: 2 + 1");
    assert_eq!(s.unit_at(9), None);
    play(&mut s, 4, "4:b2-c3");
    assert_eq!(
        s.unit_at(16),
        Some((Player::One, 3)),
        "the stack moves whole"
    );
    assert_eq!(s.unit_at(8), None);
}

#[test]
fn game_ends_when_the_turn_passes_to_a_player_without_pieces() {
    // Black's last piece on c3; White on a3 takes it.
    let id = "7/7/W,1,B,4/7/white/main/41,80/6,6/0x14/1,0x20/0x9,1,0x4/0x21";
    let mut s = at("tab-ludii", id);
    play(&mut s, 2, "2:a3-c3");
    let o = s.turn().outcome().expect("over");
    assert_eq!(
        (o.winner, o.reason, o.scores.one),
        (Some(Player::One), EndReason::Elimination, 7)
    );
    // Taking it with a 4 gives another throw: the game goes on until a 2 or 3.
    let id = "7/7/W,3,B,2/7/white/main/41,80/6,6/0x14/1,0x20/0x11,1,0x2/0x21";
    let mut s = at("tab-ludii", id);
    play(&mut s, 4, "4:a3-e3");
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(s.mover(), Player::One);
    play(&mut s, 6, "6:e3-d2");
    assert_eq!(s.turn(), Turn::Chance, "a 6 throws again too");
    play(&mut s, 3, "3:d2-a2");
    assert_eq!(s.turn().outcome().unwrap().winner, Some(Player::One));
    assert_eq!(s.decisions(), 83);
}

// ---- At-Tab wa-d-Dukk.lud --------------------------------------------------------------------

const HYDE13_START: &str =
    "w,w,w,w,w,w,w,w,w,w,w,w,w/13/13/b,b,b,b,b,b,b,b,b,b,b,b,b/white/1,0/0,0";

#[test]
fn locked_pieces_move_only_with_a_1_and_moving_unlocks() {
    let s = at("tab-hyde-ludii", HYDE13_START);
    assert_eq!(s, rules("tab-hyde-ludii").initial_state());
    assert_eq!(moves_after(&s, 2), vec!["pass"]);
    // Only the last piece of the row has a free square ahead (row 2, going back).
    assert_eq!(moves_after(&s, 1), vec!["1:m1-m2"]);
    let mut s = s;
    play(&mut s, 1, "1:m1-m2");
    assert!(!s.is_locked(25));
    assert!(s.is_locked(11));
    // After the 1 White throws again; the unlocked piece moves with any throw, the next
    // locked one only with a 1.
    assert_eq!(moves_after(&s, 3), vec!["3:m2-j2"]);
    assert_eq!(moves_after(&s, 1), vec!["1:l1-m1", "1:m2-l2"]);
}

#[test]
fn a_throw_past_the_end_of_the_track_cannot_be_played() {
    // White on b4 (track index 50); Black has left its home row.
    let id = "13/B,12/13/1,W,11/white/101,200/12,11";
    let s = at("tab-hyde-ludii", id);
    assert_eq!(moves_after(&s, 1), vec!["1:b4-a4"]);
    assert_eq!(moves_after(&s, 2), vec!["pass"]);
}

#[test]
fn a_king_moves_whole_or_all_but_one_when_the_throw_is_one_less() {
    let id = |king: &str, home: &str| {
        format!("{home}/13/{king},12/b,b,b,b,b,b,b,b,b,b,b,b,1/white/21,40/1,0")
    };
    let s = at("tab-hyde-ludii", &id("W3", "w,w,w,w,w,w,w,w,w,w,3"));
    assert_eq!(moves_after(&s, 2), vec!["2:a3-c3", "2:a3-c3*2"]);
    let s = at("tab-hyde-ludii", &id("W4", "w,w,w,w,w,w,w,w,w,4"));
    assert_eq!(moves_after(&s, 2), vec!["2:a3-c3"]);
    let mut s = at("tab-hyde-ludii", &id("W3", "w,w,w,w,w,w,w,w,w,w,3"));
    play(&mut s, 2, "2:a3-c3*2");
    assert_eq!(
        (s.unit_at(26), s.unit_at(28)),
        (Some((Player::One, 1)), Some((Player::One, 2)))
    );
}

#[test]
fn onto_an_own_unit_in_the_middle_rows_exactly_one_piece_moves_and_joins() {
    let id = "w,w,w,w,w,w,w,w,w,w,3/13/W2,1,W,10/b,b,b,b,b,b,b,b,b,b,b,b,1/white/21,40/1,0";
    let mut s = at("tab-hyde-ludii", id);
    assert_eq!(moves_after(&s, 2), vec!["2:a3-c3*1", "2:c3-e3"]);
    play(&mut s, 2, "2:a3-c3*1");
    assert_eq!(
        (s.unit_at(26), s.unit_at(28)),
        (Some((Player::One, 1)), Some((Player::One, 2)))
    );
    let e = s.parse_move("x").unwrap_err().to_string();
    assert!(e.contains("no move can be made now"), "{e}");
}

#[test]
fn no_move_onto_an_own_unit_outside_the_middle_rows() {
    // White's unlocked piece on k1 would land on its own piece on m1.
    let id = "w,w,w,w,w,w,w,w,w,w,W,1,W/13/13/b,b,b,b,b,b,b,b,b,b,b,b,b/white/21,40/0,1";
    let s = at("tab-hyde-ludii", id);
    assert_eq!(moves_after(&s, 2), vec!["2:m1-l2"]);
}

#[test]
fn a_unit_in_the_opponents_home_row_waits_until_that_row_is_empty() {
    let id = |row4: &str| format!("13/13/B,12/{row4}/white/101,200/11,12");
    let s = at("tab-hyde-ludii", &id("1,W,10,b"));
    assert_eq!(moves_after(&s, 1), vec!["pass"]);
    let s = at("tab-hyde-ludii", &id("W,12"));
    assert_eq!(
        moves_after(&s, 1),
        vec!["pass"],
        "a4 is the end of the track"
    );
    let s = at("tab-hyde-ludii", &id("1,W,11"));
    assert_eq!(moves_after(&s, 1), vec!["1:b4-a4"]);
}

#[test]
fn a_capture_removes_a_whole_king_and_scores_one() {
    let id = "w,w,w,w,w,w,w,w,w,w,w,w,1/13/W,1,B3,10/b,b,b,b,b,b,b,b,b,b,1,1,1/white/21,40/0,0";
    let mut s = at("tab-hyde-ludii", id);
    play(&mut s, 2, "2:a3-c3");
    assert_eq!(s.unit_at(28), Some((Player::One, 1)));
    assert_eq!(s.scores().into_array(), [1, 0]);
}

#[test]
fn a_player_who_cannot_move_passes_and_a_4_after_a_pass_throws_again() {
    let mut s = rules("tab-hyde-ludii").initial_state();
    play(&mut s, 4, "pass");
    assert_eq!(s.mover(), Player::One);
    play(&mut s, 3, "pass");
    assert_eq!(s.mover(), Player::Two);
}

#[test]
fn the_game_ends_when_every_piece_stands_in_its_opposing_home_row() {
    // White's last piece outside Black's row steps in; Black's pieces are all in White's row.
    let id = "B,B,11/13/12,W/W,12/white/201,400/5,5";
    let mut s = at("tab-hyde-ludii", id);
    play(&mut s, 1, "1:m3-m4");
    let o = s.turn().outcome().expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (None, EndReason::NoMoreCaptures),
        "equal scores draw"
    );
}

#[test]
fn the_game_ends_when_the_player_who_moved_has_no_pieces() {
    // White lost everything; it passes, and that ends the game on scores.
    let id = "13/13/13/B,12/white/301,500/1,13";
    let mut s = at("tab-hyde-ludii", id);
    assert_eq!(moves_after(&s, 2), vec!["pass"]);
    play(&mut s, 2, "pass");
    let o = s.turn().outcome().expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Player::Two), EndReason::Elimination)
    );
}

// ---- Ludii's limits --------------------------------------------------------------------------

#[test]
fn ludiis_limits_stop_the_game_with_no_winner() {
    let mut s = rules("tab-ludii(move_cap=3)").initial_state();
    for _ in 0..3 {
        play(&mut s, 2, "pass");
    }
    let o = s.turn().outcome().expect("stopped");
    assert_eq!((o.winner, o.reason), (None, EndReason::TurnCap));
    // One turn each: the check after the decision of turn 2 stops it.
    let mut s = rules("tab-ludii(turn_cap=1)").initial_state();
    play(&mut s, 4, "pass");
    assert!(s.turn().outcome().is_none());
    play(&mut s, 4, "pass");
    assert!(s.turn().outcome().unwrap().is_truncated());
    assert_eq!(s.decisions(), 2);
    // Extra throws stay in the same turn.
    let mut s = rules("tab-hyde-ludii(turn_cap=1)").initial_state();
    play(&mut s, 1, "1:m1-m2");
    play(&mut s, 4, "4:m2-i2");
    play(&mut s, 6, "6:i2-c2");
    assert!(s.turn().outcome().is_none(), "still turn 1");
    assert_eq!(s.ludii_turn(), 1);
    play(&mut s, 2, "2:c2-a2");
    assert!(s.turn().outcome().is_none(), "the check saw turn 1");
    play(&mut s, 2, "pass");
    assert!(s.turn().outcome().unwrap().is_truncated());
}

// ---- Notation and explanations ---------------------------------------------------------------

#[test]
fn illegal_moves_are_explained_in_one_line() {
    let mut s = Ruleset::default().initial_state();
    s.apply_chance_unchecked(throw(3));
    let cases = [
        ("3:a1-d1", "in the opening nobody moves"),
        ("2:a1-d1", "the throw to play is 3, not 2"),
        ("3:A-D", "Lane's letters name squares only on 9 columns"),
        ("3:h1-i1", "off the board"),
        ("3:a1", "FROM-TO"),
    ];
    for (text, why) in cases {
        let e = s.parse_move(text).unwrap_err().to_string();
        assert!(e.contains(why), "{text}: {e}");
        assert_eq!(e.lines().count(), 1);
    }
    let mut s = Ruleset::default().initial_state();
    play(&mut s, 1, "pass");
    s.apply_chance_unchecked(throw(3));
    for (text, why) in [
        ("pass", "so you may not pass"),
        ("3:a2-d2", "a2 is empty"),
        ("3:a4-d4", "holds black's pieces"),
        ("3:a1-e1", "from a1 a 3 allows only 3:a1-d1"),
    ] {
        let e = s.parse_move(text).unwrap_err().to_string();
        assert!(e.contains(why), "{text}: {e}");
    }
    assert!(s.parse_move("a1-d1").is_ok(), "the throw may be left out");
    let hyde = rules("tab-hyde-ludii").initial_state();
    let mut h = hyde;
    play(&mut h, 1, "1:m1-m2");
    h.apply_chance_unchecked(throw(2));
    let e = h.parse_move("2:a1-c1").unwrap_err().to_string();
    assert!(e.contains("locked: it moves only with a 1"), "{e}");
}

#[test]
fn nine_columns_use_lanes_letters_and_accept_coordinates() {
    let mut s = rules("tab-ludii(columns=9)").initial_state();
    play(&mut s, 1, "pass");
    s.apply_chance_unchecked(throw(3));
    let m = s.parse_move("3:A-D").unwrap();
    assert_eq!(m.to_string(), "3:A-D");
    assert_eq!(s.parse_move("3:a1-d1"), Ok(m));
    assert_eq!("3:A-D".parse::<Move>().unwrap(), m);
    assert!(s.render().contains("A B C D E F G H I"));
    // Lane's letters in the wrong case: the move meant is named.
    for typed in ["3:a-d", "3:A-d", "a-d"] {
        let e = s.parse_move(typed).unwrap_err().to_string();
        assert!(
            e.contains("did you mean 3:A-D? capital letters name the squares of White's half"),
            "{typed}: {e}"
        );
    }
    let e = s.parse_move("3:b-f").unwrap_err().to_string();
    assert!(!e.contains("did you mean"), "{e}");
}

#[test]
fn position_ids_are_checked() {
    let r = Ruleset::default();
    for (id, why) in [
        ("W,W/7/7/B7/white", "expected 12"),
        (
            "W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,1/white/main/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21",
            "captured exactly",
        ),
        (
            "W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/green/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21",
            "status 'green'",
        ),
        (
            "W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white/opening/1,0/0,0/1x7,0x6/0x21/1x7,0x7/0x21",
            "13 values, expected 14",
        ),
        (
            "W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/over:elimination/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21",
            "exactly one side has no pieces",
        ),
        (
            "W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/over:turn-cap/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21",
            "cannot have ended",
        ),
        (
            "W,W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21",
            "more than 7 squares",
        ),
        (
            "w,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21",
            "not a square",
        ),
        (
            "W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white/opening/0,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21",
            "start at 1",
        ),
    ] {
        let e = r.state_from_id(id).unwrap_err().to_string();
        assert!(e.contains(why), "{id}: {e}");
    }
    let h = rules("tab-hyde-ludii");
    let e = h
        .state_from_id("13/13/13/13/white/300,500/13,13")
        .unwrap_err()
        .to_string();
    assert!(e.contains("over"), "{e}");
}
