public import StateRestoration

/// The selection and editing state that text fields and text views share.
///
/// The selected range is archived as `[location, length]` in characters. A range that does not
/// fit the text when restoration finishes is dropped, as UIKit documents: the app restores the
/// text itself (it is app data) in its controller's decode or finished-restoring, and the range
/// is checked against the text at the end.
struct TextSelectionState {
  static let selectedRangeKey = "selectedRange"
  static let editingKey = "editing"

  private var pendingRange: Range<Int>?
  private weak var coder: StateDecoder?

  static func encode(selection: Range<Int>?, isEditing: Bool, into coder: StateCoder) {
    if let selection {
      coder.encode([selection.lowerBound, selection.count], forKey: selectedRangeKey)
    }
    coder.encode(isEditing, forKey: editingKey)
  }

  /// Reads the range and editing state; the range waits until ``resolve(against:)``.
  mutating func decode(from coder: StateDecoder) -> Bool? {
    if let pair = coder.decode([Int].self, forKey: Self.selectedRangeKey), pair.count == 2,
      pair[0] >= 0, pair[1] >= 0, pair[0] <= Int.max - pair[1]
    {
      pendingRange = pair[0]..<(pair[0] + pair[1])
      self.coder = coder
    }
    return coder.decode(Bool.self, forKey: Self.editingKey)
  }

  /// The waiting range if it fits `text`; reports and drops it otherwise.
  mutating func resolve(against text: String) -> Range<Int>?? {
    guard let range = pendingRange else { return .none }
    pendingRange = nil
    if range.upperBound <= text.count { return .some(range) }
    let note =
      "selected range \(range.lowerBound)..<\(range.upperBound) does not fit the text (\(text.count) characters); dropped"
    coder?.reportNote(note)
    return .some(nil)
  }
}

/// A single line of editable text (UIKit's `UITextField`).
///
/// Preserves its selected range and whether it was being edited. Its text is app data and is
/// not archived by default (as in UIKit); set ``preservesText`` to archive it too.
open class TextField: View {
  /// Archive key for the text, when ``preservesText`` is on.
  public static let textKey = "text"

  /// The text.
  open var text = ""
  /// Shown when the text is empty.
  open var placeholder = ""
  /// The selected characters; an empty range is a caret.
  ///
  /// Nil when not editing.
  open var selectedRange: Range<Int>?
  /// Whether the field is being edited (it has the keyboard).
  open var isEditing = false
  /// Whether the text itself is archived.
  open var preservesText = false

  private var selectionState = TextSelectionState()

  /// Writes the selection, the editing state, and the text when asked to.
  open override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    TextSelectionState.encode(selection: selectedRange, isEditing: isEditing, into: coder)
    if preservesText { coder.encode(text, forKey: Self.textKey) }
  }

  /// Reads them back; the selection is checked against the text when restoration finishes.
  open override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    if preservesText, let text = coder.decode(String.self, forKey: Self.textKey) {
      self.text = text
    }
    if let editing = selectionState.decode(from: coder) { isEditing = editing }
  }

  /// Applies the selected range if it fits the text.
  open override func applicationFinishedRestoringState() {
    super.applicationFinishedRestoringState()
    if let resolved = selectionState.resolve(against: text) { selectedRange = resolved }
  }
}

/// Scrolling, multi-line text (UIKit's `UITextView`).
///
/// Preserves its selected range, whether it is editable and being edited, and its scroll
/// position. Its text is app data and is not archived by default; set ``preservesText`` to
/// archive it too.
open class TextView: ScrollView {
  /// Archive key: whether the text is editable.
  public static let editableKey = "editable"

  /// The text.
  open var text = ""
  /// The selected characters; an empty range is a caret.
  open var selectedRange: Range<Int>?
  /// Whether the user may edit the text.
  open var isEditable = true
  /// Whether the view is being edited.
  open var isEditing = false
  /// Whether the text itself is archived.
  open var preservesText = false

  private var selectionState = TextSelectionState()

  /// Writes the selection, editability, editing state, scroll position, and the text when
  /// asked to.
  open override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    TextSelectionState.encode(selection: selectedRange, isEditing: isEditing, into: coder)
    coder.encode(isEditable, forKey: Self.editableKey)
    if preservesText { coder.encode(text, forKey: TextField.textKey) }
  }

  /// Reads them back; the selection is checked against the text when restoration finishes.
  open override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    if preservesText, let text = coder.decode(String.self, forKey: TextField.textKey) {
      self.text = text
    }
    if let editing = selectionState.decode(from: coder) { isEditing = editing }
    if let editable = coder.decode(Bool.self, forKey: Self.editableKey) { isEditable = editable }
  }

  /// Applies the selected range if it fits the text.
  open override func applicationFinishedRestoringState() {
    super.applicationFinishedRestoringState()
    if let resolved = selectionState.resolve(against: text) { selectedRange = resolved }
  }
}

/// A line of text (UIKit's `UILabel`).
open class Label: View {
  /// The text.
  open var text: String

  /// Creates a label.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - restorationIdentifier: The identifier for restoration.
  public init(_ text: String = "", restorationIdentifier: String? = nil) {
    self.text = text
    super.init(restorationIdentifier: restorationIdentifier)
  }
}

/// A button that runs an action (UIKit's `UIButton`).
open class Button: View {
  /// The title.
  open var title: String
  /// What a tap does.
  open var action: (() -> Void)?

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - action: What a tap does.
  public init(_ title: String, action: (() -> Void)? = nil) {
    self.title = title
    self.action = action
    super.init()
  }

  /// Runs the action, as a tap does.
  open func tap() { action?() }
}

/// An on/off switch (UIKit's `UISwitch`).
///
/// Its value belongs to the app's model (a settings file), not to the restoration archive, as
/// the seeds insist: the switch archives nothing of its own.
open class Switch: View {
  /// Whether the switch is on.
  open var isOn = false
  /// Called when the user flips the switch.
  open var valueChanged: ((Bool) -> Void)?

  /// Flips the switch, as a tap does, and reports the change.
  open func toggle() {
    isOn.toggle()
    valueChanged?(isOn)
  }
}

/// A value picked along a track (UIKit's `UISlider`).
///
/// Like ``Switch``, its value belongs to the app: a controller that wants it back encodes it
/// itself (the talk's demo encodes the slider value in its first controller).
open class Slider: View {
  /// The smallest value.
  open var minimumValue: Float = 0
  /// The largest value.
  open var maximumValue: Float = 1
  /// The value, kept within the bounds.
  open var value: Float = 0 {
    didSet { value = min(max(value, minimumValue), maximumValue) }
  }
}
