//! `sudobench report --peers DIR`: the peer libraries listed in DIR/peers.txt (as
//! `scripts/peers.sh` writes it) run through `lib:` in the same tables as the built-in
//! backends, labelled by name, without their paths; a missing or malformed list is a clear
//! error naming the file.

use crate::common::{data, report, stderr};

#[test]
fn report_adds_the_listed_peers_under_their_names() {
    let dir = tempfile::tempdir().unwrap();
    let peers = dir.path().join("peers");
    std::fs::create_dir(&peers).unwrap();
    let library = crate::plugin::library();
    // One peer, and one whose library was not built (left out).
    std::fs::write(
        peers.join("peers.txt"),
        format!(
            "sbsolver {} sb_solve\nmissing {} Nothing\n",
            library.display(),
            peers.join("libmissing.so").display()
        ),
    )
    .unwrap();
    let results = dir.path().join("RESULTS.md");
    let chart = dir.path().join("chart.svg");
    let o = report(
        &results,
        &[
            "--peers",
            peers.to_str().unwrap(),
            "--chart",
            chart.to_str().unwrap(),
            "--sample",
            "5",
            &data("puzzles3_magictour_top1465.gz"),
        ],
    );
    crate::common::assert_success(&o);
    let page = std::fs::read_to_string(&results).unwrap();
    assert!(page.contains("| basic |"), "{page}");
    // The peer solved all five puzzles (unique 5, no mismatch) under its label.
    assert!(
        page.contains(" | 5/5 | 5 | 0 | 0 | 0 | 5 | 0 |") && page.contains("| sbsolver (lib) |"),
        "{page}"
    );
    assert!(!page.contains("missing") && !page.contains(&library.display().to_string()));
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.contains("sbsolver (lib)"), "{svg}");
}

#[test]
fn a_missing_or_malformed_peer_list_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("RESULTS.md");
    let args = |peers: &str| {
        report(
            &results,
            &[
                "--peers",
                peers,
                "--sample",
                "1",
                &data("puzzles3_magictour_top1465.gz"),
            ],
        )
    };
    let o = args(dir.path().to_str().unwrap());
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("peers.txt"), "{}", stderr(&o));
    std::fs::write(dir.path().join("peers.txt"), "tdoku only-two-fields\n").unwrap();
    let o = args(dir.path().to_str().unwrap());
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("peers.txt:1:"), "{}", stderr(&o));
    assert!(!results.exists(), "nothing written on an error");
}
