// swift-format-ignore-file
import SwiftUI

/// The activity types of the app.
enum SketchActivity {
  static let viewing = "com.example.sketches.viewing"
}

struct Sketch: Codable, Hashable, Identifiable {
  var id: String
  var title: String
  var strokes: [[CGPoint]]

  func draw(in context: GraphicsContext, size: CGSize) {
    for stroke in strokes {
      var line = Path()
      line.addLines(stroke)
      context.stroke(line, with: .color(.primary))
    }
  }
}

@MainActor
final class SketchLibrary: ObservableObject {
  @Published private(set) var sketches: [Sketch] = []

  func sketch(withIdentifier identifier: String) -> Sketch? {
    sketches.first { $0.id == identifier }
  }
}
