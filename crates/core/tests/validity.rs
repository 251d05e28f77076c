//! Named tests of the validity check (`GameState::validate`), each from a literal position id:
//! a fact that every reachable state satisfies, an id that breaks it and the error that says
//! so, and where it helps an id that keeps it.

use qasab_core::{GameState, Ruleset, tab, tab_ludii, tihbat};

/// The error for `id` under `rules`, which must reject it.
fn rejected<R: Ruleset>(rules: &str, id: &str) -> String {
    let r: R = rules.parse().unwrap();
    match r.state_from_id(id) {
        Ok(_) => panic!("{rules} accepted {id}"),
        Err(e) => e.why,
    }
}

fn accepted<R: Ruleset>(rules: &str, id: &str) {
    let r: R = rules.parse().unwrap();
    if let Err(e) = r.state_from_id(id) {
        panic!("{rules} rejected {id}: {e}");
    }
}

fn tab_rejects(rules: &str, id: &str, why: &str) {
    let e = rejected::<tab::Ruleset>(rules, id);
    assert!(e.contains(why), "{rules} {id}: '{e}' should say '{why}'");
}

fn tab_accepts(rules: &str, id: &str) {
    accepted::<tab::Ruleset>(rules, id);
}

/// The start of `tab`, with one field replaced.
fn start_with(field: usize, text: &str) -> String {
    let mut f: Vec<&str> =
        "open:w/-/A,B,C,D,E,F,G,H,I/a,b,c,d,e,f,g,h,i/0.0/0.0/0.0/0.0.0.0/0.0.0.0.0.0.0/-"
            .split('/')
            .collect();
    f[field] = text;
    f.join("/")
}

/// Black's start with piece 9 converted onto k: a side that has captured has moved a piece.
const B_MOVED: &str = "a,b,c,d,e,f,g,h,k.c34v8040000";
/// The same, under a reduction rule that keeps no visited squares.
const B_MOVED_ROWS: &str = "a,b,c,d,e,f,g,h,k.c34";

fn middle(pending: &str, white: &str, captured: &str) -> String {
    format!("move:w/{pending}/{white}/{B_MOVED}/0.0/{captured}/0.0/3.0.1.0/0.0.0.0.0.0.0/-")
}

/// [`middle`] under a reduction rule that keeps no visited squares.
fn middle_rows(pending: &str, white: &str, captured: &str) -> String {
    middle(pending, white, captured).replace(B_MOVED, B_MOVED_ROWS)
}

// ----- pieces -----

#[test]
fn an_unconverted_piece_stands_on_its_start_square_with_its_start_history() {
    // Black's piece 1 written on i instead of a: it has never moved, so it cannot be there.
    tab_rejects(
        "tab",
        &start_with(3, "i,b,c,d,e,f,g,h,i"),
        "black piece 1 (from a) stands on i but is not converted",
    );
    // On its start square, but with marks that only moving gives.
    tab_rejects(
        "tab",
        &middle("2", "A.12v1,x,x,x,x,x,x,x,K.c12v20100", "0.7"),
        "white piece 1 (from A) is not converted, so it has never moved",
    );
}

#[test]
fn a_converted_piece_has_left_its_start_square_unless_conversion_is_in_place() {
    let white = "A.c1v1,x,x,x,x,x,x,x,K.c12v20100";
    tab_rejects(
        "tab",
        &middle("2", white, "0.7"),
        "is converted but stands on its start square A",
    );
    tab_accepts("tab(conversion=in-place)", &middle("2", white, "0.7"));
}

#[test]
fn a_converted_piece_has_the_history_of_one_walk_along_its_track() {
    // The position of the report on L-7, as written: piece 1's visited squares leave out
    // the squares it started on and passed (A to H).
    tab_rejects(
        "tab",
        "move:w/23/N.c123v7ffff00,N.c12v3c1f0,x,x,x,x,x,x,x/a,b,c,x,x,x,x,x,x/0.0/6.7/0.0/1.0.1.10/10.0.0.0.0.0.0/-",
        "the history of white piece 1 (from A), N.c123v7ffff00, is not that of any walk along its track to N: expected N.c12v3c1ff (on its first lap) or N.c123v7ffffff (round the loop) or N.ce1234vfffffffff (through the enemy row)",
    );
    // With the histories mended, its 2 and 3 are still two 2-or-3 throws in one turn.
    tab_rejects(
        "tab",
        "move:w/23/N.c123v7ffffff,N.c12v3c1fe,x,x,x,x,x,x,x/a,b,c,x,x,x,x,x,x/0.0/6.7/0.0/1.0.1.10/10.0.0.0.0.0.0/-",
        "a turn's throws end at its first 2 or 3 (L-5)",
    );
    // The rows seen must be those of the walk: a piece on K has seen rows 1 and 2 (first
    // lap), or rows 1 to 3 (round the loop), or all four (through the enemy row).
    tab_rejects(
        "tab(reduction=row-entered)",
        &middle_rows("2", "x,x,x,x,x,x,x,x,K.c13", "0.8"),
        "expected K.c12 (on its first lap) or K.c123 (round the loop) or K.ce1234 (through the enemy row)",
    );
    for marks in ["c12", "c123", "ce1234"] {
        tab_accepts(
            "tab(reduction=row-entered)",
            &middle_rows("2", &format!("x,x,x,x,x,x,x,x,K.{marks}"), "0.8"),
        );
    }
    // The enemy-row mark agrees with the walk: a piece in the enemy row has been there.
    tab_rejects(
        "tab(reduction=row-entered)",
        &middle_rows("2", "x,x,x,x,x,x,x,x,r.c1234", "0.8"),
        "expected r.c123 (on its first lap, or round the loop) or r.ce1234 (through the enemy row)",
    );
    // Pieces never go back: White's piece 9 cannot stand on H, behind its start I.
    tab_rejects(
        "tab(reduction=row-entered)",
        &middle_rows("2", "x,x,x,x,x,x,x,x,H.c1", "0.8"),
        "which its track does not reach from I",
    );
}

#[test]
fn under_square_landed_the_landing_squares_lie_on_the_walk() {
    // Piece 9 from I on its first lap to N came to rest on L: allowed. On r (off the walk): not.
    tab_accepts(
        "tab(reduction=square-landed)",
        &middle("2", "x,x,x,x,x,x,x,x,N.c12v14100", "0.8"),
    );
    tab_rejects(
        "tab(reduction=square-landed)",
        &middle("2", "x,x,x,x,x,x,x,x,N.c12v2004100", "0.8"),
        "its visited squares are its start, its square and squares on that walk",
    );
}

// ----- squares -----

#[test]
fn nothing_stands_on_an_own_unconverted_piece_unless_land_on_unconverted() {
    // Piece 7 converted from G onto H, where piece 8 has not moved.
    let white = "A,B,C,D,E,F,H.c1vc0,H,I";
    let id = format!("move:w/2/{white}/a,b,c,d,e,f,g,h,i/0.0/0.0/0.0/1.0.1.0/0.0.0.0.0.0.0/-");
    tab_rejects(
        "tab",
        &id,
        "H holds white's unconverted piece 8 with others",
    );
    let id = format!("throw:b/-/{white}/a,b,c,d,e,f,g,h,i/0.0/0.0/0.0/2.0.1.0/0.0.0.0.0.0.0/-");
    tab_accepts("tab(land_on_unconverted=true)", &id);
}

#[test]
fn under_stacking_middle_rows_no_stack_stands_in_a_home_row() {
    // Pieces 10 and 11 moved on to l1, and piece 12 was captured.
    let white = "a1,b1,c1,d1,e1,f1,g1,h1,i1,l1.c1,l1.c1,x,m1";
    let id = format!(
        "throw:w/-/{white}/m4,l4,k4,j4,i4,h4,g4,f4,e4,d4,c4,b4,a3.c34/0.0/0.1/0.0/3.0.0.0/0.0.0.0.0.0.0/-"
    );
    tab_rejects(
        "tab-hyde(passing=free)",
        &id,
        "l1 holds a stack in white's home row",
    );
}

#[test]
fn a_dissolved_square_comes_from_a_dissolving_split() {
    let id = "move:w/2/x,x,x,x,x,x,x,M.c12v38180,M.c12v38100/a,b,c,d,e,f,g,h,k.c34v8040000/0.0/0.7/0.0/3.0.1.0/0.0.0.0.0.0.0/M";
    tab_rejects(
        "tab",
        id,
        "M is marked dissolved, which split=peel-one never makes",
    );
    tab_accepts("tab(split=dissolve)", id);
}

// ----- counts -----

#[test]
fn pieces_on_the_board_captured_and_reduced_make_each_sides_number() {
    tab_rejects(
        "tab",
        &middle("2", "x,x,x,x,x,x,x,x,K.c12v20100", "0.7"),
        "white has 1 pieces on the board, 7 captured by the opponent and 0 lost to reductions: not the 9 it started with",
    );
}

#[test]
fn a_side_that_has_captured_has_moved_a_piece() {
    tab_rejects(
        "tab",
        "move:w/2/x,x,x,x,x,x,x,x,K.c12v20100/a,b,c,d,e,f,g,h,i/0.0/0.8/0.0/3.0.1.0/0.0.0.0.0.0.0/-",
        "black has captured pieces but none of its pieces has ever moved (L-16)",
    );
}

#[test]
fn pieces_are_lost_to_reductions_only_when_a_reduction_rule_is_on() {
    let id = "move:w/2/x,x,x,x,x,x,x,x,K.c12/a,b,c,d,e,f,g,h,i/0.0/0.0/8.0/1.0.1.0/0.0.0.0.0.0.0/-";
    // (Under `tab` itself, whose reduction rule keeps visited squares, the piece needs them.)
    tab_rejects(
        "tab(reduction=off)",
        id,
        "which reduction=off never makes (L-15)",
    );
    tab_accepts("tab(reduction=row-entered)", id);
}

#[test]
fn tabs_are_banked_only_by_a_side_with_every_piece_converted() {
    tab_rejects(
        "tab",
        &middle("2", "A,x,x,x,x,x,x,x,K.c12v20100", "0.7").replace("/0.0/0.7/", "/2.0/0.7/"),
        "banked tabs but an unconverted piece",
    );
    tab_rejects(
        "tab(tab_bank=none)",
        &middle("2", "x,x,x,x,x,x,x,x,K.c12v20100", "0.8").replace("/0.0/0.8/", "/2.0/0.8/"),
        "which tab_bank=none never allows (L-8)",
    );
}

// ----- phase and throws -----

#[test]
fn the_opening_comes_before_any_move_and_alternates_from_white() {
    tab_rejects(
        "tab",
        &start_with(0, "open:b"),
        "after 0 opening throws, alternating from white, white throws next (L-4)",
    );
    tab_accepts(
        "tab",
        &start_with(0, "open:b").replace("/0.0.0.0/0.0", "/0.0.1.1/0.0"),
    );
    tab_rejects(
        "tab",
        &start_with(2, "A,B,C,D,E,F,G,H,K.c12v20100"),
        "in the opening no piece has moved yet (L-4)",
    );
    tab_rejects(
        "tab(opening=normal)",
        &start_with(0, "open:w"),
        "an opening phase needs opening=until-tab (L-4)",
    );
}

#[test]
fn pending_throws_fit_the_phase() {
    let white = "x,x,x,x,x,x,x,x,K.c12v20100";
    let throwing = |pending: &str| {
        format!("throw:w/{pending}/{white}/{B_MOVED}/0.0/0.8/0.0/3.0.1.0/0.0.0.0.0.0.0/-")
    };
    tab_accepts("tab", &throwing("146"));
    tab_rejects("tab", &throwing("12"), "a 2 or a 3 ends the throwing (L-5)");
    tab_rejects(
        "tab(throw_timing=interleaved)",
        &throwing("1"),
        "none is pending while a player throws (L-6)",
    );
    tab_rejects(
        "tab(throw_cap=3)",
        &throwing("166"),
        "a turn that has thrown throw_cap=3 times stops the game (L-18)",
    );
    tab_rejects(
        "tab(throw_timing=interleaved)",
        &middle("24", white, "0.8"),
        "one throw at most is pending (L-6)",
    );
    tab_rejects(
        "tab(throw_timing=interleaved)",
        &middle("4", white, "0.8"),
        "the pending 4 gives another throw: write the phase as move:w+",
    );
    tab_accepts(
        "tab(throw_timing=interleaved)",
        &middle("4", white, "0.8").replace("move:w/", "move:w+/"),
    );
    tab_rejects(
        "tab",
        &middle("4", white, "0.8").replace("move:w/", "move:w+/"),
        "belongs to a move phase with throw_timing=interleaved",
    );
    // A move phase must offer a decision: a lone unconverted piece cannot use a 2.
    tab_rejects(
        "tab",
        "move:w/2/A,x,x,x,x,x,x,x,x/a,b,c,d,e,f,g,h,k.c34v8040000/0.0/0.8/0.0/3.0.1.0/0.0.0.0.0.0.0/-",
        "no decision is possible in this move phase",
    );
}

#[test]
fn the_counters_the_rules_read_are_within_their_limits() {
    let white = "x,x,x,x,x,x,x,x,K.c12v20100";
    let with_counters =
        |c: &str| format!("move:w/2/{white}/{B_MOVED}/0.0/0.8/0.0/{c}/0.0.0.0.0.0.0/-");
    tab_rejects(
        "tab(turn_cap=30)",
        &with_counters("31.0.0.0"),
        "turn 31 is past turn_cap=30 (L-18)",
    );
    tab_rejects(
        "tab(no_progress=5)",
        &with_counters("9.5.0.0"),
        "5 turns without progress reach no_progress=5",
    );
    tab_accepts("tab(no_progress=5)", &with_counters("9.4.1.0"));
    tab_rejects("tab", &with_counters("0.0.0.0"), "turns are counted from 1");
}

#[test]
fn the_opening_the_turn_count_and_the_side_to_move_agree() {
    // After White's opening tab, a 2 and 1:I-K: turn 1, White's, after 1 opening throw.
    let white = "A,B,C,D,E,F,G,H,K.c12v20100";
    let at = |phase: &str, counters: &str| {
        format!("{phase}/-/{white}/a,b,c,d,e,f,g,h,i/0.0/0.0/0.0/{counters}/2.0.1.0.0.0.0/-")
    };
    tab_accepts("tab", &at("throw:b", "2.0.1.3"));
    // White began, so turn 2 is Black's.
    tab_rejects(
        "tab",
        &at("throw:w", "2.0.1.3"),
        "turn 2 is black's: white began, with the tab of opening throw 1, and the players alternate, so odd turns are white's (L-4)",
    );
    // After 2 opening throws Black threw the tab and began: turn 2 is White's.
    tab_accepts("tab", &at("throw:w", "2.0.2.4"));
    // An opening count left at 0 (as in an id built by hand) is read as White's tab, so
    // turn 2 is Black's here too.
    tab_rejects(
        "tab",
        &at("throw:w", "2.0.0.3"),
        "turn 2 is black's: white began (0 opening throws are read as white's tab)",
    );
    tab_accepts("tab", &at("throw:b", "2.0.0.3"));
    // And there is no opening without opening=until-tab.
    tab_rejects(
        "tab(opening=normal)",
        &at("throw:b", "2.0.1.3"),
        "1 opening throws, but opening=normal has no opening (L-4)",
    );
    tab_accepts("tab(opening=normal)", &at("throw:b", "2.0.0.3"));
}

#[test]
fn the_turns_without_progress_are_at_most_the_turns_ended() {
    let white = "A,B,C,D,E,F,G,H,K.c12v20100";
    let at = |phase: &str, counters: &str| {
        format!("{phase}/-/{white}/a,b,c,d,e,f,g,h,i/0.0/0.0/0.0/{counters}/2.0.1.0.0.0.0/-")
    };
    tab_rejects(
        "tab",
        &at("throw:b", "2.5.1.3"),
        "5 turns without progress, but only 1 turn has ended (L-18)",
    );
    tab_accepts("tab", &at("throw:b", "2.1.1.3"));
    tab_rejects(
        "tab",
        &at("throw:b", "2.2.1.3"),
        "2 turns without progress, but only 1 turn has ended (L-18)",
    );
    // Once the game is over, the last turn has ended too.
    tab_accepts("tab(turn_cap=2)", &at("over:turn-cap:-", "2.2.1.3"));
}

#[test]
fn before_the_second_mover_has_played_his_captured_pieces_were_taken_on_their_start_squares() {
    // Turn 1 is White's: Black has moved nothing, so his piece 9, captured, was taken on i.
    // White's piece on K has visited only I and K.
    let captured_on_i = |phase: &str, white: &str| {
        format!(
            "{phase}/{}/{white}/a,b,c,d,e,f,g,h,x/0.0/1.0/0.0/1.0.1.9/2.0.1.0.0.1.1/-",
            if phase.starts_with("move") { "2" } else { "-" }
        )
    };
    tab_rejects(
        "tab",
        &captured_on_i("move:w", "A,B,C,D,E,F,G,H,K.c12v20100"),
        "black piece 9 is captured, but black has not had a turn, so it was taken unmoved on i by a white piece, and no white piece has been there (L-16)",
    );
    // A White piece that went into the enemy row and stands on i took it.
    tab_accepts(
        "tab(turn_cap=1)",
        &captured_on_i("over:turn-cap:-", "A,B,C,D,E,F,G,H,i.ce1234vfffffff00"),
    );
    // Without visited squares, the capturer has the enemy-row mark.
    tab_accepts(
        "tab(reduction=row-entered,turn_cap=1)",
        &captured_on_i("over:turn-cap:-", "A,B,C,D,E,F,G,H,i.ce1234"),
    );
    tab_rejects(
        "tab(reduction=row-entered,turn_cap=1)",
        &captured_on_i("over:turn-cap:-", "A,B,C,D,E,F,G,H,K.c12"),
        "no white piece has been there (L-16)",
    );
}

#[test]
fn counters_at_their_largest_values_play_on_without_wrapping() {
    // Tihbat's move count stops at its largest value: the state after it reads back.
    let r: tihbat::Ruleset = "tihbat".parse().unwrap();
    for plies in [u32::MAX - 1, u32::MAX] {
        let mut s = r
            .state_from_id(&format!("7,7,7,7/0,0/south/{plies}"))
            .unwrap_or_else(|e| panic!("{plies}: {e}"));
        let a = s.parse_action("A7").unwrap();
        s.apply_unchecked(a);
        assert_eq!(s.plies(), u32::MAX);
        let id = s.position_id();
        assert_eq!(r.state_from_id(&id).as_ref(), Ok(&s), "{id}");
    }
    // Tab's action count and statistics stop at theirs.
    let r: tab::Ruleset = "tab".parse().unwrap();
    let max = u32::MAX;
    let id = format!(
        "throw:w/-/A,B,C,D,E,F,G,H,I/a,b,c,d,e,f,g,h,i/0.0/0.0/0.0/1.0.1.{max}/{max}.{max}.{max}.{max}.{max}.0.0/-"
    );
    let mut s = r.state_from_id(&id).unwrap();
    for action in ["1", "2", "1:I-K", "2:K-M"] {
        let a = s.parse_action(action).unwrap();
        s.apply_unchecked(a);
        let id = s.position_id();
        assert_eq!(r.state_from_id(&id).as_ref(), Ok(&s), "{id}");
    }
    assert_eq!(s.actions(), u32::MAX);
}

// ----- the end -----

#[test]
fn the_outcome_is_the_one_the_position_gives() {
    let over = |phase: &str, black: &str, captured: &str| {
        format!(
            "{phase}/-/x,x,x,x,x,x,x,x,K.c12v20100/{black}/0.0/{captured}/0.0/5.0.1.0/0.0.0.0.0.0.0/-"
        )
    };
    let gone = "x,x,x,x,x,x,x,x,x";
    // (ruleset, phase, Black's pieces, captures, the error, if any)
    let cases: &[(&str, &str, &str, &str, Option<&str>)] = &[
        ("tab", "over:elimination:w", gone, "9.8", None),
        (
            "tab",
            "over:elimination:b",
            gone,
            "9.8",
            Some("this position gives white, not black"),
        ),
        (
            "tab",
            "move:w",
            gone,
            "9.8",
            Some("a side has no piece left, so the game is over"),
        ),
        (
            "tab",
            "over:elimination:w",
            B_MOVED,
            "0.8",
            Some("the game ends by elimination only when a side has no piece left (L-17)"),
        ),
        (
            "tab",
            "over:board-empty:-",
            B_MOVED,
            "0.8",
            Some("a Tab game does not end by"),
        ),
        (
            "tab",
            "over:no-progress:-",
            B_MOVED,
            "0.8",
            Some(
                "the game stops for want of progress when the count of turns without progress reaches no_progress=100 (L-18); it is 0",
            ),
        ),
        ("tab", "over:turn-cap:-", B_MOVED, "0.8", None),
        (
            "tab(limit_result=material)",
            "over:turn-cap:-",
            B_MOVED,
            "0.8",
            Some("this position gives black, not no winner"),
        ),
        (
            "tab",
            "over:no-more-captures:-",
            B_MOVED,
            "0.8",
            Some("only end=most-captures ends a game when no capture is possible (H-13)"),
        ),
    ];
    for &(rules, phase, black, captured, why) in cases {
        let id = over(phase, black, captured);
        match why {
            None => tab_accepts(rules, &id),
            Some(why) => tab_rejects(rules, &id, why),
        }
    }
}

#[test]
fn under_most_captures_a_game_with_every_piece_across_is_over() {
    let id = "move:w/1/x,x,x,x,x,x,x,x,x,x,x,x,b4.ce1234/x,x,x,x,x,x,x,x,x,x,x,x,l1.ce1234/0.0/12.12/0.0/3.0.0.0/0.0.0.0.0.0.0/-";
    tab_rejects(
        "tab-hyde",
        id,
        "every piece stands in its enemy's home row, so under end=most-captures the game is over (H-13)",
    );
    tab_accepts(
        "tab-hyde",
        &id.replace("move:w/1/", "over:no-more-captures:-/-/"),
    );
}

// ----- the other games -----

#[test]
fn tihbat_with_no_move_played_is_at_its_start() {
    for (rules, id) in [
        ("tihbat", "2,9,9,8/0,0/north/0"),
        ("tihbat", "0,0,0,0/28,0/north/0"),
        ("tihbat(first=north)", "7,7,7,7/0,0/south/0"),
    ] {
        let e = rejected::<tihbat::Ruleset>(rules, id);
        assert!(
            e.contains("with no move played the game is at its start"),
            "{rules} {id}: {e}"
        );
    }
    accepted::<tihbat::Ruleset>("tihbat", "7,7,7,7/0,0/south/0");
    accepted::<tihbat::Ruleset>("tihbat(first=north)", "7,7,7,7/0,0/north/0");
}

#[test]
fn tihbat_side_to_move_follows_the_count_of_moves() {
    let e = rejected::<tihbat::Ruleset>("tihbat", "2,9,9,8/0,0/south/1/7.7.7.7s");
    assert!(
        e.contains("after 1 moves north is to move: south moved first"),
        "{e}"
    );
    let e = rejected::<tihbat::Ruleset>("tihbat(seeds=2,first=north)", "1,0,1,2/4,0/south/4");
    assert!(e.contains("after 4 moves north is to move"), "{e}");
    accepted::<tihbat::Ruleset>("tihbat(seeds=2,first=north)", "1,0,1,2/4,0/south/5");
    // Without the count, an id has the fewest moves that fit it.
    let r: tihbat::Ruleset = "tihbat(seeds=2)".parse().unwrap();
    for (id, plies) in [
        ("2,2,2,2/0,0/south", 0),
        ("2,3,3,0/0,0/north", 1),
        ("1,0,1,2/4,0/south", 2),
    ] {
        assert_eq!(r.state_from_id(id).unwrap().plies(), plies, "{id}");
    }
}

#[test]
fn tihbat_histories_follow_by_legal_moves() {
    let r: tihbat::Ruleset = "tihbat".parse().unwrap();
    // After South's A7 from the start: the start is the one position before.
    assert!(r.state_from_id("2,9,9,8/0,0/north/1/7.7.7.7s").is_ok());
    let e = rejected::<tihbat::Ruleset>("tihbat", "2,9,9,8/0,0/north/1/7.7.8.6s").to_string();
    assert!(e.contains("does not follow the one before"), "{e}");
    let e = rejected::<tihbat::Ruleset>("tihbat", "2,9,9,8/0,0/north/0/7.7.7.7s");
    assert!(
        e.contains("0 moves played cannot make a history of 2 positions"),
        "{e}"
    );
}

#[test]
fn ludii_positions_keep_their_pieces_on_their_squares() {
    let e = rejected::<tab_ludii::Ruleset>("tab-hyde-ludii", "13/13/13/13/white/1,0/0,0");
    assert!(e.contains("scores do not fit the board"), "{e}");
}

#[test]
fn ludii_track_counts_fit_the_pieces() {
    // After White's opening 1 (a pass) and 1:g1-g2, with a 3 to play: the counts follow the
    // piece.
    let moved =
        "W,W,W,W,W,W,1/6,W/7/B,B,B,B,B,B,B/white:3/main/1,2/0,0/1x6,0,1,0x6/0x21/1x7,0x7/0x21";
    accepted::<tab_ludii::Ruleset>("tab-ludii", moved);
    // The piece moved but the counts did not.
    let e = rejected::<tab_ludii::Ruleset>("tab-ludii", &moved.replace("1x6,0,1,0x6", "1x7,0x7"));
    assert!(
        e.contains("white has lost no piece and has no stack, so it has never had one (stacks never split) and its track counts are its pieces: g1 holds 0 of them but is counted 1 (LT-6)"),
        "{e}"
    );
    // Counts of 35 White pieces: more than the pieces there, which no capture explains.
    let e = rejected::<tab_ludii::Ruleset>(
        "tab-ludii",
        "1,W2,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white:2/main/1,2/0,0/5x7,0x7/0x21/1x7,0x7/0x21",
    );
    assert!(
        e.contains("white's track counts exceed its pieces on their squares by 28 in all"),
        "{e}"
    );
    // From a recorded game (tests/data/replays/tab-ludii-2.txt, state 62): Black's B8 has
    // just taken White's W3 on R, which leaves White counted 2 there (a capture takes 1), and
    // Black's enemy track counts -7 on an empty square, which a stack of 8 left counted 1.
    accepted::<tab_ludii::Ruleset>(
        "tab-ludii(columns=9)",
        "6,W6,2/1,B8,7/9/B,8/black/main/18,31/0,3/0x6,6,0x9,2,0/0x27/0x8,1,0x9/-7,0x6,8,0x19",
    );
}

#[test]
fn ludii_counters_agree_with_each_other_and_the_side_to_move() {
    let start = "W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21";
    accepted::<tab_ludii::Ruleset>("tab-ludii", start);
    // Turn 1 is White's; the turn grows by one at most per decision.
    let e = rejected::<tab_ludii::Ruleset>("tab-ludii", &start.replace("white/", "black/"));
    assert!(e.contains("turn 1 is white's"), "{e}");
    let e = rejected::<tab_ludii::Ruleset>(
        "tab-ludii",
        &start
            .replace("/main/", "/opening/")
            .replace("/1,0/", "/5,2/"),
    );
    assert!(
        e.contains("the turn number grows by one at most per decision"),
        "{e}"
    );
    // In the opening every decision handed the turn over.
    let e = rejected::<tab_ludii::Ruleset>("tab-ludii", &start.replace("/1,0/", "/1,2/"));
    assert!(e.contains("turn 1 after 2 decisions in the opening"), "{e}");
    accepted::<tab_ludii::Ruleset>(
        "tab-ludii",
        &start.replace("white/", "black/").replace("/1,0/", "/2,1/"),
    );
    // A finished game is within Ludii's limits too.
    let e = rejected::<tab_ludii::Ruleset>(
        "tab-hyde-ludii",
        "x/13/13/b,b,b,b,b,b,b,b,b,b,b,b,b/over:turn-cap/4294967295,4294967295/0,0"
            .replace("x/", "w,w,w,w,w,w,w,w,w,w,w,w,w/")
            .as_str(),
    );
    assert!(e.contains("past Ludii's limits"), "{e}");
}
