import Foundation

/// A country and its capital, as the Restorer app lists them.
public struct Country: Codable, Hashable, Sendable {
  /// The country's name; unique, and the country's identity in the app's model.
  public var name: String
  /// The capital city; empty for places without one.
  public var capital: String

  /// Creates a country.
  ///
  /// - Parameters:
  ///   - name: The name.
  ///   - capital: The capital.
  public init(name: String, capital: String) {
    self.name = name
    self.capital = capital
  }
}

/// The app's data model: the countries, in display order.
///
/// This is model data, kept outside the restoration archive, as the seeds insist.
public final class CountryList {
  /// The countries, in display order.
  public private(set) var countries: [Country]

  /// Creates a list.
  ///
  /// - Parameter countries: The countries, in display order.
  public init(countries: [Country]) {
    self.countries = countries
  }

  /// The country with a name.
  ///
  /// - Parameter name: The name.
  /// - Returns: The country, or nil.
  public func country(named name: String) -> Country? {
    countries.first { $0.name == name }
  }

  /// The position of the country with a name.
  ///
  /// - Parameter name: The name.
  /// - Returns: The row, or nil.
  public func index(ofCountryNamed name: String) -> Int? {
    countries.firstIndex { $0.name == name }
  }

  /// Removes countries by name, as an updated data file between launches would.
  ///
  /// - Parameter names: The names to remove.
  public func removeCountries(named names: Set<String>) {
    countries.removeAll { names.contains($0.name) }
  }

  /// Inserts a country at a row.
  ///
  /// - Parameters:
  ///   - country: The country.
  ///   - row: Where to insert it.
  public func insert(_ country: Country, at row: Int) {
    countries.insert(country, at: min(max(row, 0), countries.count))
  }

  /// The list shipped with the app (`countries.json`, about 250 countries).
  ///
  /// - Returns: The list.
  /// - Throws: ``CountryDataError`` when the data file is missing or malformed.
  public static func bundled() throws(CountryDataError) -> CountryList {
    let url = try bundledDataURL()
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw CountryDataError(
        path: url.path, reason: "cannot be read: \(error.localizedDescription)")
    }
    do {
      return CountryList(countries: try JSONDecoder().decode([Country].self, from: data))
    } catch {
      throw CountryDataError(path: url.path, reason: "is not a list of countries: \(error)")
    }
  }

  /// Finds `countries.json` in the resource bundle SwiftPM builds next to the executable.
  ///
  /// `Bundle.module` would trap when the bundle is missing (a binary copied elsewhere); this
  /// search reports a clear error instead.
  private static func bundledDataURL() throws(CountryDataError) -> URL {
    let bundleName = "swift-state-restoration_RestorerCore.resources"
    var candidates: [URL] = []
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
      .resolvingSymlinksInPath()
    candidates.append(executable.deletingLastPathComponent().appendingPathComponent(bundleName))
    candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundleName))
    for bundle in Bundle.allBundles where bundle.bundleURL.lastPathComponent.hasSuffix(".xctest") {
      candidates.append(
        bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(bundleName))
    }
    for folder in candidates {
      let url = folder.appendingPathComponent("countries.json")
      if FileManager.default.fileExists(atPath: url.path) { return url }
    }
    throw CountryDataError(
      path: candidates.first?.appendingPathComponent("countries.json").path ?? bundleName,
      reason: "is missing (the app's resource bundle was not found next to the executable)"
    )
  }
}

/// The country data file could not be loaded.
public struct CountryDataError: Error, CustomStringConvertible {
  /// The file.
  public var path: String
  /// What is wrong with it.
  public var reason: String
  /// `path reason`.
  public var description: String { "\(path) \(reason)" }
}
