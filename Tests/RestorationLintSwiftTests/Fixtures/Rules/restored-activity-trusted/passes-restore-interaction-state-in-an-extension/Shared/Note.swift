// swift-format-ignore-file
import Foundation

/// A note, and where the app and its share extension keep them.
struct Note: Codable, Hashable, Identifiable {
  static let identifierKey = "noteID"

  var id: String
  var title: String
  var text: String
}

final class NoteStore {
  static let shared = NoteStore()

  private(set) var notes: [Note] = []

  func note(withIdentifier identifier: String) -> Note? {
    notes.first { $0.id == identifier }
  }

  func add(_ note: Note) {
    notes.append(note)
  }
}
