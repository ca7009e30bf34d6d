import Foundation

/// One note: its first line is its title.
public struct Note: Codable, Hashable, Sendable {
  /// The note's identity; it never changes, whatever the note's text or place in the list.
  public var id: Int
  /// The text.
  public var text: String

  /// Creates a note.
  ///
  /// - Parameters:
  ///   - id: The note's identity.
  ///   - text: The text; its first line is the title.
  public init(id: Int, text: String) {
    self.id = id
    self.text = text
  }

  /// The first line of the text, or `(empty note)`.
  public var title: String {
    let line = text.prefix { $0 != "\n" }
    return line.isEmpty ? "(empty note)" : String(line)
  }
}

/// The notes: the app's data, in a JSON file of their own, apart from the restoration archive.
///
/// The archive holds UI state only (which screen is open, which note is selected, the text
/// typed but not saved) and refers to notes by ``Note/id``, so that a note edited, moved or
/// deleted between launches is found again, or known to be gone.
public final class NoteStore {
  /// The largest notes file read, in bytes.
  public static let maxFileSize = 4 << 20

  /// The file.
  public let path: String
  /// The notes, in list order.
  public private(set) var notes: [Note]

  /// Opens the notes file; a missing file is created with a few sample notes.
  ///
  /// - Parameter path: The file; its folder and the folders above it are created `0700`.
  /// - Throws: ``NoteStoreError`` when the file cannot be read or created.
  public init(path: String) throws(NoteStoreError) {
    self.path = path
    notes = []
    if let data = try Self.read(path) {
      do {
        notes = try JSONDecoder().decode([Note].self, from: data)
      } catch {
        throw NoteStoreError(
          path: path, reason: "it is not a notes file (a JSON array of {\"id\", \"text\"})")
      }
    } else {
      notes = Self.samples
      try save()
    }
  }

  /// The note with an identity.
  ///
  /// - Parameter id: The identity.
  /// - Returns: The note, or nil when there is none (it was deleted).
  public func note(withID id: Int) -> Note? {
    notes.first { $0.id == id }
  }

  /// The place of a note in the list.
  ///
  /// - Parameter id: The note's identity.
  /// - Returns: Its index, or nil when there is no such note.
  public func index(ofNoteWithID id: Int) -> Int? {
    notes.firstIndex { $0.id == id }
  }

  /// Replaces a note's text and writes the file.
  ///
  /// - Parameters:
  ///   - id: The note's identity.
  ///   - text: The new text.
  /// - Throws: ``NoteStoreError`` when the note is gone or the file cannot be written; the
  ///   notes are then as they were.
  public func update(noteWithID id: Int, text: String) throws(NoteStoreError) {
    guard let index = index(ofNoteWithID: id) else {
      throw NoteStoreError(path: path, reason: "note \(id) is no longer in the file")
    }
    let old = notes[index].text
    notes[index].text = text
    do {
      try save()
    } catch {
      notes[index].text = old
      throw error
    }
  }

  /// Writes the file: a new file renamed over the old one, so a kill leaves one or the other.
  private func save() throws(NoteStoreError) {
    do {
      try Self.createFolders(for: path)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(notes).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch let error as NoteStoreError {
      throw error
    } catch {
      throw NoteStoreError(path: path, reason: "cannot write it: \(Self.describe(error))")
    }
  }

  /// The file's bytes, or nil when there is no file.
  private static func read(_ path: String) throws(NoteStoreError) -> Data? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw NoteStoreError(path: path, reason: "cannot open it")
    }
    defer { try? handle.close() }
    do {
      // One byte past the limit tells a file at the limit from a larger one, without reading
      // a huge file whole.
      let data = try handle.read(upToCount: maxFileSize + 1) ?? Data()
      guard data.count <= maxFileSize else {
        throw NoteStoreError(path: path, reason: "it is larger than \(maxFileSize) bytes")
      }
      return data
    } catch let error as NoteStoreError {
      throw error
    } catch {
      throw NoteStoreError(path: path, reason: "cannot read it: \(describe(error))")
    }
  }

  /// Creates the file's missing folders one by one, each `0700`: notes are the user's alone.
  private static func createFolders(for path: String) throws(NoteStoreError) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL
    var missing: [URL] = []
    var current = folder
    var isDirectory: ObjCBool = false
    while !FileManager.default.fileExists(atPath: current.path, isDirectory: &isDirectory) {
      missing.append(current)
      current = current.deletingLastPathComponent()
    }
    guard isDirectory.boolValue else {
      throw NoteStoreError(path: path, reason: "\(current.path) is a file, not a folder")
    }
    for url in missing.reversed() {
      do {
        try FileManager.default.createDirectory(
          at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
      } catch {
        throw NoteStoreError(
          path: path, reason: "cannot create the folder \(url.path): \(describe(error))")
      }
    }
  }

  /// A Foundation error in words, without its domain and code.
  private static func describe(_ error: any Error) -> String {
    let description = (error as NSError).localizedDescription
    return description.isEmpty ? "\(error)" : description
  }

  /// The notes of a first launch.
  static let samples: [Note] = [
    Note(id: 1, text: "Welcome to Notes\nOpen a note, edit it, press Home: it all comes back."),
    Note(id: 2, text: "Shopping list\nbread\neggs\n"),
    Note(id: 3, text: "Call the plumber\nThe kitchen tap drips. Tuesday, before noon."),
    Note(id: 4, text: "Book club\nRead chapters 4 to 6."),
    Note(id: 5, text: "Packing list\nCharger, passport, walking shoes."),
    Note(id: 6, text: "Birthday gift for Sam\nA kite, or the puzzle book."),
    Note(id: 7, text: "Recipes to try\nLentil soup; lemon cake."),
    Note(id: 8, text: "Car\nService due in June."),
    Note(id: 9, text: "Running\n5 km on Monday, Wednesday and Saturday."),
    Note(id: 10, text: "Library\nReturn two books by the 14th."),
    Note(id: 11, text: "Garden\nPlant the tulip bulbs before the frost."),
    Note(id: 12, text: "Ideas\nA bench under the apple tree."),
  ]
}

/// The notes file could not be read or written.
public struct NoteStoreError: Error, CustomStringConvertible {
  /// The file.
  public var path: String
  /// Why, in words.
  public var reason: String

  /// `cannot use the notes file <path>: <reason>`.
  public var description: String { "cannot use the notes file \(path): \(reason)" }
}
