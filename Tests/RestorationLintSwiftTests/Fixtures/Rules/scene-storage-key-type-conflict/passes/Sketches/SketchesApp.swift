// swift-format-ignore-file
import SwiftUI

@main
struct SketchesApp: App {
  @StateObject private var library = SketchLibrary()

  var body: some Scene {
    WindowGroup {
      ContentView()
        .environmentObject(library)
    }
  }
}
