import ArchiveInspection
import ArgumentParser
import RestorationLint
import RestorationLintCommand

/// `restoration-archive-tool`: reads restoration archives, after Apple's restorationArchiveTool.
///
/// Each subcommand parses its options and calls into `ArchiveInspection`, where the logic and
/// its tests live.
@main
struct RestorationArchiveTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restoration-archive-tool",
    abstract:
      "Inspect, compare, measure and check state restoration archives (version \(PackageVersion.current)).",
    discussion: """
      An archive is the `data.data` file the engine saves, under \
      `<state folder>/Saved Application State/<bundle id>.savedState/`. Give its path, or \
      let `--bundle-id ID` find it: `restoration-archive-tool dump --bundle-id \
      com.example.Restorer`. The state folder is `--state-dir`, else \
      $XDG_STATE_HOME/swift-state-restoration, else ~/.local/state/swift-state-restoration, \
      where the library and the Restorer demo keep it.

      Exit status:
      \(ToolExitStatus.helpText)
      """,
    // `lint` reads storyboards, not archives; it comes from its own library.
    version: PackageVersion.current,
    subcommands: [Dump.self, Paths.self, Diff.self, Sizes.self, Validate.self, Lint.self]
  )
}
