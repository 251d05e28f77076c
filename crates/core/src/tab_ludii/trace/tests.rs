//! The replayer on hand-written lines: the first three decisions of a recorded Tab game
//! (game 2 of Ludii's 7-column sample, seed 7), stopped by a decision limit of 3.

use super::*;

fn line(json: &str) -> Line {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// The header of a 7-column Tab trace whose games stop after 3 decisions, with Ludii's
/// tracks.
const HEADER: &str = r#"{"type":"header","game":"Tab","options":["Board size/7"],"rows":4,"cols":7,
        "tracks":[
          {"name":"HomeTrack1","sites":[0,1,2,3,4,5,6,13,12,11,10,9,8,7]},
          {"name":"HomeTrack2","sites":[27,26,25,24,23,22,21,14,15,16,17,18,19,20]},
          {"name":"MiddleTrack","sites":[13,12,11,10,9,8,7,14,15,16,17,18,19,20]},
          {"name":"EnemyTrack1","sites":[14,15,16,17,18,19,20,27,26,25,24,23,22,21,14,15,16,17,18,19,20]},
          {"name":"EnemyTrack2","sites":[13,12,11,10,9,8,7,0,1,2,3,4,5,6,13,12,11,10,9,8,7]}],
        "maxTurns":1250,"maxMoves":3}"#;

const GAME: &str = r#"{"type":"game","g":2}"#;

/// White throws a 1 in the opening: a pass that starts the main phase and throws again.
const STEP0: &str = r#"{"type":"step","g":2,"step":0,"mover":1,"phase":0,"turn":1,
        "dice":{"throw":1},
        "pieces":[[0,1,1,0],[1,1,1,0],[2,1,1,0],[3,1,1,0],[4,1,1,0],[5,1,1,0],[6,1,1,0],
                  [21,2,1,0],[22,2,1,0],[23,2,1,0],[24,2,1,0],[25,2,1,0],[26,2,1,0],[27,2,1,0]],
        "scores":null,
        "legal":[{"from":-1,"to":-1,"count":0,"pass":true}],"chosen":0}"#;

/// White throws a 2 and moves 3-5, onto his own piece.
const STEP1: &str = r#"{"type":"step","g":2,"step":1,"mover":1,"phase":1,"turn":1,
        "dice":{"throw":2},
        "pieces":[[0,1,1,0],[1,1,1,0],[2,1,1,0],[3,1,1,0],[4,1,1,0],[5,1,1,0],[6,1,1,0],
                  [21,2,1,0],[22,2,1,0],[23,2,1,0],[24,2,1,0],[25,2,1,0],[26,2,1,0],[27,2,1,0]],
        "scores":null,
        "legal":[{"from":0,"to":2,"count":1,"pass":false},{"from":1,"to":3,"count":1,"pass":false},
                 {"from":2,"to":4,"count":1,"pass":false},{"from":3,"to":5,"count":1,"pass":false},
                 {"from":4,"to":6,"count":1,"pass":false},{"from":5,"to":13,"count":1,"pass":false},
                 {"from":6,"to":12,"count":1,"pass":false}],
        "chosen":3}"#;

/// Black throws a 2 and moves 25-23.
const STEP2: &str = r#"{"type":"step","g":2,"step":2,"mover":2,"phase":1,"turn":2,
        "dice":{"throw":2},
        "pieces":[[0,1,1,0],[1,1,1,0],[2,1,1,0],[4,1,1,0],[5,1,2,0],[6,1,1,0],
                  [21,2,1,0],[22,2,1,0],[23,2,1,0],[24,2,1,0],[25,2,1,0],[26,2,1,0],[27,2,1,0]],
        "legal":[{"from":21,"to":15,"count":1,"pass":false},{"from":22,"to":14,"count":1,"pass":false},
                 {"from":23,"to":21,"count":1,"pass":false},{"from":24,"to":22,"count":1,"pass":false},
                 {"from":25,"to":23,"count":1,"pass":false},{"from":26,"to":24,"count":1,"pass":false},
                 {"from":27,"to":25,"count":1,"pass":false}],
        "chosen":4}"#;

/// The decision limit stops the game: no winner.
const END: &str = r#"{"type":"end","g":2,"winner":0,"endType":"MoveLimit","decisions":3,
        "scores":null,
        "pieces":[[0,1,1,0],[1,1,1,0],[2,1,1,0],[4,1,1,0],[5,1,2,0],[6,1,1,0],
                  [21,2,1,0],[22,2,1,0],[23,2,2,0],[24,2,1,0],[26,2,1,0],[27,2,1,0]]}"#;

fn replay(lines: &[&str]) -> Result<Report, ReplayError> {
    let mut r = Replayer::new();
    for l in lines {
        r.feed(&line(l))?;
    }
    r.finish()
}

fn mismatch(game: Option<u32>, step: Option<u32>, description: &str) -> Mismatch {
    Mismatch {
        game,
        step,
        description: description.into(),
    }
}

#[test]
fn a_game_played_as_ludii_played_it_has_no_mismatch() {
    let r = replay(&[HEADER, GAME, STEP0, STEP1, STEP2, END]).unwrap();
    assert_eq!(r.game, "Tab");
    assert_eq!(r.options, ["Board size/7"]);
    assert_eq!(r.ruleset.to_string(), "tab-ludii(move_cap=3)");
    assert_eq!((r.games, r.decisions), (1, 3));
    assert_eq!(r.mismatches, []);
    assert!(r.conforms());
    // Two games in a row, the second stopped by the same limit.
    let again: Vec<String> = [GAME, STEP0, STEP1, STEP2, END]
        .iter()
        .map(|l| l.replace(r#""g":2"#, r#""g":3"#))
        .collect();
    let mut lines = vec![HEADER, GAME, STEP0, STEP1, STEP2, END];
    lines.extend(again.iter().map(String::as_str));
    let r = replay(&lines).unwrap();
    assert_eq!((r.games, r.decisions, r.conforms()), (2, 6, true));
}

#[test]
fn a_different_throw_is_reported_and_the_rest_of_the_game_skipped() {
    // With a 3 for Ludii's 2, its legal moves are not ours and its chosen move 3-5 is not
    // legal: the game cannot be followed, its last step is counted but not compared, and
    // its end is not compared.
    let step1 = STEP1.replace(r#""throw":2"#, r#""throw":3"#);
    let mut r = Replayer::new();
    for l in [HEADER, GAME, STEP0, &step1] {
        r.feed(&line(l)).unwrap();
    }
    assert_eq!(r.mismatches().len(), 2);
    let report = replay(&[HEADER, GAME, STEP0, &step1, STEP2, END]).unwrap();
    assert_eq!((report.games, report.decisions), (1, 3));
    assert!(!report.conforms());
    let [legal, chosen] = &report.mismatches[..] else {
        panic!("{:?}", report.mismatches)
    };
    assert_eq!((legal.game, legal.step), (Some(2), Some(1)));
    assert!(
        legal
            .description
            .starts_with("throw 3: legal moves differ; only Ludii's: "),
        "{legal:?}"
    );
    assert_eq!(
        *chosen,
        mismatch(
            Some(2),
            Some(1),
            "Ludii's chosen move 3-5*1 is not legal here; the rest of the game is skipped"
        )
    );
}

#[test]
fn a_different_position_and_end_are_reported() {
    // Ludii's board lacks Black's piece on 27, its mover and turn number are changed, and
    // its game ends naturally with a winner.
    let step2 = STEP2
        .replace(",[27,2,1,0]]", "]")
        .replace(r#""mover":2"#, r#""mover":1"#)
        .replace(r#""turn":2"#, r#""turn":7"#);
    let end = END
        .replace(r#""winner":0"#, r#""winner":1"#)
        .replace("MoveLimit", "NaturalEnd");
    let r = replay(&[HEADER, GAME, STEP0, STEP1, &step2, &end]).unwrap();
    assert_eq!(
        r.mismatches,
        [
            mismatch(Some(2), Some(2), "Ludii's mover is player 1, ours 2"),
            mismatch(Some(2), Some(2), "Ludii's turn number is 7, ours 2"),
            mismatch(
                Some(2),
                Some(2),
                "boards differ; only Ludii's: none; only ours: 27:P2x1"
            ),
            mismatch(Some(2), Some(3), "Ludii's winner is 1, ours 0"),
            mismatch(
                Some(2),
                Some(3),
                "Ludii's game ended by NaturalEnd, ours stopped by the turn cap"
            ),
        ]
    );
    // Ludii plays on where our game has ended.
    let step3 = STEP2.replace(r#""step":2"#, r#""step":3"#);
    let end = END.replace(r#""decisions":3"#, r#""decisions":4"#);
    let r = replay(&[HEADER, GAME, STEP0, STEP1, STEP2, &step3, &end]).unwrap();
    assert_eq!(
        r.mismatches,
        [mismatch(
            Some(2),
            Some(3),
            "Ludii plays on, but our game ended after 3 decisions (stopped by the turn cap)"
        )]
    );
    // Ludii's game ends where ours goes on.
    let end = END.replace(r#""decisions":3"#, r#""decisions":2"#);
    let r = replay(&[HEADER, GAME, STEP0, STEP1, &end]).unwrap();
    assert_eq!(
        r.mismatches,
        [mismatch(
            Some(2),
            Some(2),
            "Ludii's game ended after 2 decisions, ours goes on"
        )]
    );
}

#[test]
fn the_header_tracks_are_compared_with_ours() {
    let header = HEADER.replace("[0,1,2,3,4,5,6,13,", "[1,0,2,3,4,5,6,13,");
    let r = replay(&[&header]).unwrap();
    assert_eq!(
        r.mismatches,
        [mismatch(
            None,
            None,
            "Ludii's track HomeTrack1 is not ours ([1, 0, 2, 3, 4, 5, 6, 13, 12, 11, 10, 9, 8, 7])"
        )]
    );
    // A header without tracks is not compared.
    let bare = line(HEADER);
    let Line::Header(mut h) = bare else {
        unreachable!()
    };
    h.tracks.clear();
    let mut r = Replayer::new();
    r.feed(&Line::Header(h)).unwrap();
    assert_eq!(r.finish().unwrap().mismatches, []);
}

#[test]
fn a_trace_that_cannot_be_followed_is_an_error() {
    let err = |lines: &[&str]| replay(lines).unwrap_err().to_string();
    assert_eq!(err(&[]), "the trace is empty (no header line)");
    assert_eq!(err(&[GAME]), "the trace must start with a header line");
    assert_eq!(err(&[HEADER, HEADER]), "a second header line");
    assert_eq!(err(&[HEADER, STEP0]), "a step line outside a game");
    assert_eq!(err(&[HEADER, END]), "an end line outside a game");
    assert_eq!(
        err(&[HEADER, GAME, GAME]),
        "game 2 starts before game 2 ended"
    );
    assert_eq!(
        err(&[HEADER, GAME, STEP1]),
        "expected step 0 of game 2, found step 1 of game 2"
    );
    assert_eq!(
        err(&[HEADER, GAME, STEP0]),
        "the trace stops in the middle of game 2 (no end line)"
    );
    assert_eq!(
        err(&[
            HEADER,
            GAME,
            STEP0,
            STEP1,
            STEP2,
            &END.replace(r#""g":2"#, r#""g":5"#)
        ]),
        "end of game 5 inside game 2"
    );
    assert_eq!(
        err(&[HEADER, GAME, STEP0, END]),
        "the end line counts 3 decisions, the game has 1 steps"
    );
    let step0 = |from: &str, to: &str| STEP0.replace(from, to);
    assert_eq!(
        err(&[HEADER, GAME, &step0(r#""throw":1"#, r#""throw":5"#)]),
        "throw 5 is not 1, 2, 3, 4 or 6"
    );
    assert_eq!(
        err(&[HEADER, GAME, &step0(r#""mover":1"#, r#""mover":3"#)]),
        "mover 3 is not 1 or 2"
    );
    assert_eq!(
        err(&[HEADER, GAME, &step0(r#""chosen":0"#, r#""chosen":1"#)]),
        "chosen move 1 is not in the legal list"
    );
    let header = |from: &str, to: &str| HEADER.replace(from, to);
    assert_eq!(
        err(&[&header(r#""game":"Tab""#, r#""game":"Chess""#)]),
        "unknown game 'Chess'; expected Tab or At-Tab wa-d-Dukk"
    );
    assert_eq!(
        err(&[&header(r#""rows":4"#, r#""rows":5"#)]),
        "a board of 5 rows; Tâb boards have 4"
    );
    assert_eq!(
        err(&[&header(r#""cols":7"#, r#""cols":300"#)]),
        "300 columns"
    );
    assert!(matches!(
        replay(&[&header(r#""cols":7"#, r#""cols":8"#)]),
        Err(ReplayError::Ruleset(_))
    ));
    assert!(matches!(
        replay(&[&header(r#""maxMoves":3"#, r#""maxMoves":0"#)]),
        Err(ReplayError::Ruleset(_))
    ));
}

/// serde's messages for a malformed line name the types, and `qasab ludii-replay` prints
/// them: renaming a type changes its output.
#[test]
fn malformed_lines_are_named_by_their_types() {
    let err = |json: &str| serde_json::from_str::<Line>(json).unwrap_err().to_string();
    assert!(err("3").contains("expected internally tagged enum Line"));
    assert!(err(&STEP0.replace(r#"{"throw":1}"#, "1")).contains("expected struct Dice"));
    assert!(
        err(&STEP0.replace(r#"{"from":-1,"to":-1,"count":0,"pass":true}"#, "1"))
            .contains("expected struct LegalLine")
    );
    assert!(err(r#"{"type":"step"}"#).contains("missing field `g`"));
    assert!(err(r#"{"type":"move"}"#).contains("unknown variant `move`"));
}

#[test]
fn at_tab_compares_scores_and_locks() {
    // At-Tab on 13 columns: every piece starts locked, and a 2 moves nothing, so White
    // passes; Ludii's scores and a piece it shows unlocked differ from ours.
    let home: Vec<[i64; 4]> = (0..13)
        .map(|c| [c, 1, 1, 1])
        .chain((39..52).map(|c| [c, 2, 1, 1]))
        .collect();
    let mut pieces = home.clone();
    pieces[0][3] = 0;
    let header = Line::Header(Header {
        game: "At-Tab wa-d-Dukk".into(),
        options: Vec::new(),
        rows: 4,
        cols: 13,
        tracks: Vec::new(),
        max_turns: 1250,
        max_moves: 1,
    });
    let step = Line::Step(StepLine {
        g: 0,
        step: 0,
        mover: 1,
        phase: 0,
        turn: 1,
        dice: Dice { throw: 2 },
        pieces,
        scores: Some([1, 0]),
        legal: vec![LegalLine {
            from: -1,
            to: -1,
            count: 0,
            pass: true,
        }],
        chosen: 0,
    });
    let end = Line::End(EndLine {
        g: 0,
        winner: 0,
        end_type: "MoveLimit".into(),
        decisions: 1,
        scores: Some([0, 2]),
        pieces: home,
    });
    let mut r = Replayer::new();
    for l in [header, Line::Game(GameLine { g: 0 }), step, end] {
        r.feed(&l).unwrap();
    }
    let r = r.finish().unwrap();
    assert_eq!(r.ruleset.to_string(), "tab-hyde-ludii(move_cap=1)");
    assert_eq!(
        r.mismatches,
        [
            mismatch(
                Some(0),
                Some(0),
                "boards differ; only Ludii's: 0:P1x1; only ours: 0:P1x1 locked"
            ),
            mismatch(Some(0), Some(0), "Ludii's scores are [1, 0], ours [0, 0]"),
            mismatch(
                Some(0),
                Some(1),
                "Ludii's final scores are [0, 2], ours [0, 0]"
            ),
        ]
    );
}
