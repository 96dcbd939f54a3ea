//! Where the bundled data sets are.

/// The bundled 9×9 data sets, sorted: `data/*.gz` under the current directory if it has any,
/// else in the source tree this crate was built from. `None` when neither has any. The sets
/// of other orders (`orders_*`) are left out: the main job is the 9×9 benchmark, and those
/// sets are run by naming them.
pub fn bundled_sets() -> Option<Vec<String>> {
    let candidates = [
        std::path::PathBuf::from("data"),
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
    ];
    candidates.iter().find_map(|dir| {
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "gz"))
            // The sets of other orders than 9x9: run when named, not in the main job.
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("orders_"))
            })
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        files.sort();
        (!files.is_empty()).then_some(files)
    })
}
