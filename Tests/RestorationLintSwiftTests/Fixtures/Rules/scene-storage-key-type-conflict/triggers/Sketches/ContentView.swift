// swift-format-ignore-file
import SwiftUI

/// The sketches, in a stack whose path each window keeps in its scene storage.
struct ContentView: View {
  @EnvironmentObject private var library: SketchLibrary
  @SceneStorage("navigation") private var savedPath: Data?
  @State private var path = NavigationPath()

  var body: some View {
    NavigationStack(path: $path) {
      List(library.sketches) { sketch in
        NavigationLink(sketch.title, value: sketch)
      }
      .navigationDestination(for: Sketch.self) { sketch in
        SketchView(sketch: sketch)
      }
    }
    .onContinueUserActivity(SketchActivity.viewing) { activity in
      guard let identifier = activity.userInfo?["sketch"] as? String,
        let sketch = library.sketch(withIdentifier: identifier)
      else { return }
      path.append(sketch)
    }
    .task {
      if let savedPath,
        let representation = try? JSONDecoder().decode(
          NavigationPath.CodableRepresentation.self, from: savedPath)
      {
        path = NavigationPath(representation)
      }
    }
    .onChange(of: path) {
      savedPath = path.codable.flatMap { try? JSONEncoder().encode($0) }
    }
  }
}
