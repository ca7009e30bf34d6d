import ArgumentParser
import StoryboardLintCommand

/// Runs `lint` on its own, until the archive tool mounts it as a subcommand.
struct StoryboardLintTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "storyboard-lint",
    abstract: "Check the state restoration setup of storyboards and XIBs.",
    subcommands: [Lint.self],
    defaultSubcommand: Lint.self
  )
}

StoryboardLintTool.main()
