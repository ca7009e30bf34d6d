public import Foundation
public import StateRestorationUI

/// The small set of pages the Restorer app ships for its web view, linked to each other.
public final class BundledPages: WebPageSource {
  /// The first page the "Push Me!" button opens.
  public static let home = url("index")

  private static func url(_ name: String) -> URL {
    URL(string: "bundle:///\(name).html") ?? URL(fileURLWithPath: "/\(name).html")
  }

  private static let pages: [String: WebPage] = {
    var pages: [String: WebPage] = [:]
    func add(_ name: String, _ title: String, _ lines: [String], links: [(String, String)]) {
      let page = WebPage(
        url: url(name),
        title: title,
        lines: lines,
        links: links.map { WebPage.Link(title: $0.0, url: url($0.1)) }
      )
      pages[page.url.absoluteString] = page
    }
    let filler = (1...40).map {
      "Paragraph \($0): the restored page keeps its scroll position and zoom."
    }
    add(
      "index",
      "Restorer",
      ["Welcome to Restorer's bundled pages.", "Follow a link, scroll, zoom, then press Home."]
        + filler,
      links: [("State Preservation", "preservation"), ("Restoration Classes", "classes")]
    )
    add(
      "preservation",
      "State Preservation",
      [
        "UIKit saves the UI state when the app moves to the background.",
        "The archive holds UI state only, never the data model.",
      ] + filler,
      links: [("Restoration Classes", "classes"), ("Home", "index")]
    )
    add(
      "classes",
      "Restoration Classes",
      [
        "A controller created in code needs a restoration class.",
        "The class re-creates the controller at launch.",
      ] + filler,
      links: [("Web Views", "webviews"), ("Home", "index")]
    )
    add(
      "webviews",
      "Web Views",
      [
        "UIWebView came back blank after restoration unless the app reloaded it.",
        "This web view shows the page again by itself.",
      ] + filler,
      links: [("Home", "index")]
    )
    return pages
  }()

  /// Creates the page source.
  public init() {}

  /// The bundled page at an address.
  public func page(at url: URL) -> WebPage? {
    Self.pages[url.absoluteString]
  }
}
