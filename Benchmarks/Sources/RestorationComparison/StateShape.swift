/// A state shape the comparison measures: each has its own objects, keys and code in every
/// contender, so that no contender can be tuned to a single shape.
package enum StateShape: String, CaseIterable, Codable, Sendable {
  /// A tab bar of navigation stacks of screens, 6 to 8 keys of mixed types per object.
  case linear
  /// A tab bar of navigation stacks whose screens hold child controllers and lists of cells,
  /// with registered model objects; 4 to 10 keys per object, mostly non-ASCII strings.
  case app

  /// One sentence that describes the shape, for the report.
  package var summary: String {
    switch self {
    case .linear:
      "a tab bar of navigation stacks of screens; 6 to 8 keys per object of ASCII strings, integers, reals, Booleans, dates and integer arrays; references from the tab bar to its tabs, from each stack to its screens and top screen, and from each screen to the one below it."
    case .app:
      "a tab bar of navigation stacks of screens that hold child controllers and lists of cells (identifier paths up to 5 identifiers deep), and registered model objects (a document store and its documents) that screens reference; 4 to 10 keys per object of mostly non-ASCII strings of 5 to 60 characters, dates, data of 16 to 256 bytes, string arrays, string-to-integer dictionaries and optional references to screens lower on the same stack."
    }
  }
}

/// One shape's state at one size, as every contender is built from it.
package enum Workload: Sendable {
  case linear(UIState)
  case app(AppState)

  /// Builds a shape's state.
  ///
  /// - Parameters:
  ///   - shape: The shape.
  ///   - count: The number of objects, at least 2.
  ///   - selections: How the linear shape's selections vary; the app shape has its own values.
  package init(shape: StateShape, count: Int, selections: UIState.Selections = .repeated) {
    switch shape {
    case .linear: self = .linear(UIState(count: count, selections: selections))
    case .app: self = .app(AppState(count: count))
    }
  }

  /// The shape.
  package var shape: StateShape {
    switch self {
    case .linear: .linear
    case .app: .app
    }
  }

  /// The number of objects, every one of which is archived.
  package var count: Int {
    switch self {
    case .linear(let state): state.count
    case .app(let state): state.count
    }
  }

  /// The records every contender must give back, derived from the state alone.
  package var expectedRecords: [ComparableRecord] {
    switch self {
    case .linear(let state): state.expectedRecords
    case .app(let state): state.expectedRecords
    }
  }
}
