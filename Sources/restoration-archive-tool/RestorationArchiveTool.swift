import ArchiveInspection
import ArgumentParser
import StoryboardLintCommand

/// `restoration-archive-tool`: reads restoration archives, after Apple's restorationArchiveTool.
///
/// Each subcommand parses its options and calls into `ArchiveInspection`, where the logic and
/// its tests live.
@main
struct RestorationArchiveTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restoration-archive-tool",
    abstract: "Inspect, compare, measure and check state restoration archives.",
    discussion: """
      An archive is the `data.data` file the engine saves, under \
      `<state root>/Saved Application State/<bundle id>.savedState/`.

      Exit status:
      \(ToolExitStatus.helpText)
      """,
    // `lint` reads storyboards, not archives; it comes from its own library.
    subcommands: [Dump.self, Paths.self, Diff.self, Sizes.self, Validate.self, Lint.self]
  )
}
