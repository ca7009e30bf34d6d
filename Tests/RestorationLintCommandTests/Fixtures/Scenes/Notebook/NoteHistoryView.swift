// swift-format-ignore-file
import SwiftUI
import UIKit

/// The notes opened before, in a SwiftUI stack hosted by the app's navigation controller.
struct NoteHistoryView: View {
  @State private var path = NavigationPath()
  @SceneStorage("history") private var savedPath: Data?
  let notes: [Note]
  let save: (Data) -> Void

  var body: some View {
    NavigationStack(path: $path) {
      List(notes) { note in
        NavigationLink(note.title, value: note)
      }
      .navigationDestination(for: Note.self) { note in
        Text(note.text)
      }
    }
    .onChange(of: path) {
      if let data = try? JSONEncoder().encode(path.codable!) {
        savedPath = data
        save(data)
      }
    }
  }
}

/// Whether the history shows archived notes too, kept per window.
struct NoteHistoryFilter: View {
  @SceneStorage("history") private var showsArchived = false

  var body: some View {
    Toggle("Archived notes", isOn: $showsArchived)
  }
}

/// Hosts the history in UIKit.
final class NoteHistoryViewController: UIHostingController<NoteHistoryView> {
  init(notes: [Note]) {
    super.init(rootView: NoteHistoryView(notes: notes) { _ in })
  }

  @MainActor required dynamic init?(coder: NSCoder) {
    fatalError("NoteHistoryViewController is created in code")
  }
}
