import ThrobberKit

/// `check`'s declaration: its help page, man page entry, completions and
/// the options its parser accepts.
extension CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        summary: "Re-make the entries of a regression manifest and compare their SHA-256.",
        overview: """
            Pin the SHA-256 of the files Throbber makes, for your CI.

            A manifest lists entries to make — {"render": CONFIG}, {"preset": NAME}, \
            or {"encode": [INPUTS]}, each with "args", an "output" name and its \
            "sha256" — with paths relative to the manifest. check makes every entry \
            in a temporary folder (your files are not touched) and compares. On a \
            mismatch it decodes the expected file (the "output" path, if it exists) \
            and the new one and tells the first frame that differs. An entry \
            without a "sha256" is reported NEW and fails the run with its own exit \
            status until --update records it; --junit reports it as a failure of \
            type "new". Every path an entry names, in "args" too, must lead inside \
            the manifest's folder; none may be standard input, and no two entries \
            may share an output.

            --update records the hashes and writes each output at its "output" \
            path as the expected file, together with the manifest; each entry is \
            reported "updated", "unchanged" or "new". Given ENTRY names after the \
            manifest, --update records only those entries and checks the others as \
            check does, so one intended change can be accepted while another stays \
            a failure. The manifest records, under "versions", Throbber's own \
            version and those of the libraries that made the hashes, FFmpeg's \
            included ("absent" when it cannot be loaded); check notes the ones that \
            differ when it runs.
            """,
        usage:
            "throbber check <MANIFEST.json> [--update] [<ENTRY>...] [--hashes-only] [--diff-dir DIR] "
            + "[--junit FILE] [--allow-outside]",
        arguments: [
            ArgumentSpec(name: "<MANIFEST.json>", help: "The regression manifest; it comes first.", completion: .files),
            ArgumentSpec(
                name: "<ENTRY>",
                help:
                    "With --update: an entry to record, named by its \"output\" as the manifest writes it, by the path of that file, or by its file name alone when only one output has it.",
                completion: .files, repeats: true),
        ],
        options: [
            OptionSpec(
                "update",
                help:
                    "Record the current SHA-256 of every entry (of the ENTRY arguments only, when given) with the versions of Throbber and the libraries that made them, and write each output recorded at its \"output\" path as the expected file.",
                details:
                    "An ENTRY that names no entry, or a file name several outputs share, is refused (exit 64) before anything is made; the message lists the outputs. Entries not named are checked as without --update, and the run's exit status counts them."
            ),
            OptionSpec("hashes-only", help: "With --update: record the hashes only, write no expected files."),
            OptionSpec(
                "diff-dir", value: "dir",
                help: "Write expected, actual and difference PNGs of the first differing frame of each mismatch.",
                completion: .folders),
            OptionSpec(
                "junit", value: "file",
                help:
                    "Also write the results as a JUnit XML report, for CI systems: an entry that does not pass is a failure (type mismatch, cannot-be-made or new) that says what the terminal says.",
                completion: .files),
            OptionSpec(
                "allow-outside",
                help:
                    "Let entries name configs, inputs and outputs outside the manifest's folder (or through links out of it)."
            ),
            .jobs, .help,
        ],
        notes: [
            .init(
                title: "EXIT STATUS",
                text:
                    "0 all match, 1 a mismatch or an entry that fails, 2 entries with no hash recorded yet "
                    + "(reported NEW; nothing else failed), 64 an ENTRY that matches no entry (or ENTRY names "
                    + "without --update), or a --junit FILE that is the manifest or an entry's file, "
                    + "65/66 a broken or missing manifest (or one whose entries lead outside its folder, read standard "
                    + "input or share an output), 73 an expected file, report or scratch folder that cannot be written."
            )
        ],
        examples: [
            "throbber check loaders.json --update", "throbber check loaders.json --update dots.gif ring.png",
            "throbber check loaders.json --diff-dir diffs/",
        ])
}
