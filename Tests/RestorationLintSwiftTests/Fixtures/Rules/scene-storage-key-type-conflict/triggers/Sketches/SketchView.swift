// swift-format-ignore-file
import SwiftUI

/// One sketch; the window advertises it for Handoff.
struct SketchView: View {
  let sketch: Sketch
  @SceneStorage("navigation") private var zoom = 1.0

  var body: some View {
    Canvas { context, size in
      context.scaleBy(x: zoom, y: zoom)
      sketch.draw(in: context, size: size)
    }
    .navigationTitle(sketch.title)
    .userActivity(SketchActivity.viewing) { activity in
      activity.title = sketch.title
      activity.userInfo = ["sketch": sketch.id]
    }
  }
}
