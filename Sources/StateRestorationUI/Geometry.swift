#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A point in a view's coordinate space (UIKit's `CGPoint`).
public struct Point: Sendable, Hashable, Codable {
  /// The horizontal coordinate.
  public var x: Double
  /// The vertical coordinate.
  public var y: Double

  /// Creates a point.
  ///
  /// - Parameters:
  ///   - x: The horizontal coordinate.
  ///   - y: The vertical coordinate.
  public init(x: Double = 0, y: Double = 0) {
    self.x = x
    self.y = y
  }

  /// The origin.
  public static let zero = Point()
}

/// A width and a height (UIKit's `CGSize`).
public struct Size: Sendable, Hashable, Codable {
  /// The width.
  public var width: Double
  /// The height.
  public var height: Double

  /// Creates a size.
  ///
  /// - Parameters:
  ///   - width: The width.
  ///   - height: The height.
  public init(width: Double = 0, height: Double = 0) {
    self.width = width
    self.height = height
  }

  /// No size.
  public static let zero = Size()
}

/// Insets from each edge (UIKit's `UIEdgeInsets`).
public struct EdgeInsets: Sendable, Hashable, Codable {
  /// The top inset.
  public var top: Double
  /// The left inset.
  public var left: Double
  /// The bottom inset.
  public var bottom: Double
  /// The right inset.
  public var right: Double

  /// Creates insets.
  ///
  /// - Parameters:
  ///   - top: The top inset.
  ///   - left: The left inset.
  ///   - bottom: The bottom inset.
  ///   - right: The right inset.
  public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// No insets.
  public static let zero = EdgeInsets()
}

#if !canImport(UIKit)
  extension IndexPath {
    /// Creates an index path for a table row (UIKit's initializer).
    ///
    /// - Parameters:
    ///   - row: The row.
    ///   - section: The section.
    public init(row: Int, section: Int) {
      self.init(indexes: [section, row])
    }

    /// Creates an index path for a collection item (UIKit's initializer).
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - section: The section.
    public init(item: Int, section: Int) {
      self.init(indexes: [section, item])
    }

    /// The section; 0 for an empty index path.
    public var section: Int { count > 0 ? self[0] : 0 }

    /// The row in its section; 0 when absent.
    public var row: Int { count > 1 ? self[1] : 0 }

    /// The item in its section; the same as ``row``.
    public var item: Int { row }
  }
#endif
