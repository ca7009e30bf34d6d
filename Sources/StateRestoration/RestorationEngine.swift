public import Logging

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// The state preservation and restoration engine: UIKit's machinery, for any tree of restorable
/// objects.
///
/// An app (or a UI framework) creates one engine, gives it a ``RestorationDelegate`` that opts
/// in, and calls ``preserveApplicationState(roots:)`` when it moves to the background and
/// ``restoreApplicationState(roots:)`` at launch, between will-finish-launching and
/// did-finish-launching. The engine walks the tree through ``RestorationNode``, computes UIKit's
/// identifier paths, archives one record per object, and at the next launch finds or re-creates
/// each object and hands it its state back.
///
/// It also keeps UIKit's discard rules: a force quit deletes the archive
/// (``applicationWasForceQuit()``), two crashes during restoration delete it (the `inprogress`
/// marker), a crash while restoration is extended deletes it, and an unreadable archive is
/// deleted with a logged reason. ``RestorationSettings/developerMode`` keeps the archive in every
/// case.
public final class RestorationEngine {
  /// What the engine records about the app.
  public let applicationInfo: ApplicationInfo
  /// Where the archive lives.
  public let store: any ArchiveStore
  /// The restoration classes, registered objects and storyboards archives may use.
  public let registry: RestorationRegistry
  /// Developer mode, debug logging and input limits.
  public var settings: RestorationSettings { didSet { applyLogLevel() } }
  /// The app's opt-in and hooks; without a delegate nothing is saved or restored.
  public weak var delegate: (any RestorationDelegate)?
  /// Where the engine logs; debug messages appear when ``RestorationSettings/debugLogging`` is on.
  public var logger: Logger { didSet { applyLogLevel() } }
  /// An object restoration code reaches through ``StateDecoder/applicationContext``; weak.
  public weak var applicationContext: AnyObject?
  /// The clock used for archive timestamps.
  public var now: @Sendable () -> Date = { Date() }
  /// Called as each restoration phase starts, after the crash guard has armed its marker.
  ///
  /// Test harnesses use it to capture the store at the instant a simulated crash happens;
  /// instrumentation can use it to trace launches.
  public var phaseObserver: ((RestorationReport.Phase) -> Void)?

  /// The report of the last restoration.
  public private(set) var lastRestorationReport: RestorationReport?
  /// The report of the last preservation.
  public private(set) var lastPreservationReport: PreservationReport?

  private var classNames = ClassNames()
  /// Restorations not yet complete: 1 while restoring, plus one per extension.
  private var pendingRestorations = 0
  /// Whether the archive on disk is the one restored from (not one written since).
  private var restoredArchiveOnDisk = false

  /// Creates an engine; by default its settings are read from the environment.
  public init(
    applicationInfo: ApplicationInfo,
    store: any ArchiveStore,
    registry: RestorationRegistry = RestorationRegistry(),
    settings: RestorationSettings = .fromEnvironment(),
    logger: Logger = Logger(label: "StateRestoration")
  ) {
    (self.applicationInfo, self.store, self.registry) = (applicationInfo, store, registry)
    (self.settings, self.logger) = (settings, logger)
    applyLogLevel()
  }

  private func applyLogLevel() {
    if settings.debugLogging, logger.logLevel > .debug { logger.logLevel = .debug }
  }

  func debug(_ message: @autoclosure () -> String) {
    guard settings.debugLogging else { return }
    logger.debug("\(message())")
  }

  func warn(_ message: String) { logger.warning("\(message)") }

  // MARK: - Preservation

  /// Preserves the state of the tree under `roots` into the store.
  ///
  /// Asks the delegate's ``RestorationDelegate/shouldSaveApplicationState(with:)``, calls its
  /// ``RestorationDelegate/willEncodeRestorableState(with:)``, encodes every object under
  /// `roots` (each window's root view controller, and identified windows) with its own coder, and
  /// writes the archive atomically; a failed write keeps the previous one. Returns the report.
  @discardableResult
  public func preserveApplicationState(roots: [any StateRestoring]) -> PreservationReport {
    let clock = ContinuousClock()
    var (bytes, report) = encodeArchive(roots: roots)
    if let bytes {
      do {
        let writeStart = clock.now
        try store.write(bytes, to: .archive)
        report.timings[.write] = clock.now - writeStart
        report.outcome = .saved(bytes: bytes.count)
        // A fresh archive describes the app as it is now: the crash guard of an earlier
        // restoration no longer applies, and completing that restoration must not delete it.
        restoredArchiveOnDisk = false
        removeQuietly(.inProgressMarker)
      } catch {
        report.outcome = .failed(error)
        warn("State preservation failed: \(error)")
      }
    }
    debug(
      "Preserved \(report.identifierPaths.count) objects: \(report.outcome) in \(Self.milliseconds(report.totalDuration))"
    )
    debugTimings("Preservation", report.timings)
    lastPreservationReport = report
    return report
  }

  /// Builds the archive for the tree under `roots` without writing it.
  ///
  /// - Returns: The archive, read back from the bytes a preservation would write, and the
  ///   report (``PreservationReport/Outcome/encoded(bytes:)``, or why there is no archive).
  public func makeArchive(
    roots: [any StateRestoring]
  ) -> (archive: RestorationArchive?, report: PreservationReport) {
    var (bytes, report) = encodeArchive(roots: roots)
    guard let bytes else { return (nil, report) }
    do {
      let archive = try RestorationArchive(decoding: bytes, limits: settings.limits)
      report.outcome = .encoded(bytes: bytes.count)
      return (archive, report)
    } catch {
      report.outcome = .failed(error)
      return (nil, report)
    }
  }

  /// The archive's bytes for the tree under `roots`, or nil when the delegate did not opt in.
  private func encodeArchive(
    roots: [any StateRestoring]
  ) -> (bytes: [UInt8]?, report: PreservationReport) {
    guard let delegate else {
      debug("No restoration delegate: nothing preserved")
      return (nil, PreservationReport(outcome: .notOptedIn))
    }
    let clock = ContinuousClock()
    let start = clock.now
    let pass = PreservationPass(
      registry: registry, classNames: classNames, limits: settings.limits
    ) { [weak self] in self?.warn($0) }
    let topCoder = pass.makeTopLevelCoder()
    guard delegate.shouldSaveApplicationState(with: topCoder) else {
      debug("The delegate declined to save application state")
      return (nil, PreservationReport(outcome: .notOptedIn))
    }
    delegate.willEncodeRestorableState(with: topCoder)
    pass.run(roots: roots)
    classNames = pass.classNames
    let walked = clock.now
    typealias Key = RestorationArchive.Key
    let (bytes, paths) = pass.finish(
      engineKeys: [
        (Key.bundleVersion, .string(applicationInfo.bundleVersion)),
        (Key.systemVersion, .string(applicationInfo.systemVersion)),
        (Key.timestamp, .date(now())),
        (Key.userInterfaceIdiom, .string(applicationInfo.userInterfaceIdiom)),
      ], topCoder: topCoder)
    let report = PreservationReport(
      outcome: .encoded(bytes: bytes.count), identifierPaths: paths, issues: pass.issues,
      timings: [.encodeObjects: walked - start, .encodeArchive: clock.now - walked])
    return (bytes, report)
  }

  // MARK: - Restoration

  /// Restores the saved state into the tree under `roots`, following UIKit's order.
  ///
  /// The crash guard runs first; then the archive is read and checked, the delegate's
  /// ``RestorationDelegate/shouldRestoreApplicationState(with:)`` decides, every object is
  /// located (restoration class, delegate, an object of `roots`' hierarchy at the same path, its
  /// storyboard) and decoded, parents first; then did-decode and finished-restoring run. The
  /// archive is deleted afterwards, as UIKit does, unless developer mode is on (or on completion
  /// of an extended restoration). Returns what came back, what did not and why.
  @discardableResult
  public func restoreApplicationState(roots: [any StateRestoring]) -> RestorationReport {
    let report = restore(roots: roots)
    lastRestorationReport = report
    debug("Restoration finished: \(report.outcome)")
    debugTimings("Restoration", report.timings)
    return report
  }

  private func debugTimings<Phase: RawRepresentable<String> & CaseIterable>(
    _ process: String, _ timings: [Phase: Duration]
  ) {
    for phase in Phase.allCases {
      if let duration = timings[phase] {
        debug("\(process) phase '\(phase.rawValue)' took \(Self.milliseconds(duration))")
      }
    }
  }

  private func restore(roots: [any StateRestoring]) -> RestorationReport {
    let clock = ContinuousClock()
    var timings: [RestorationReport.Phase: Duration] = [:]
    let readStart = clock.now
    let discardNote = readDiscardNote()
    let bytes: [UInt8]?
    do {
      bytes = try store.read(.archive, maxSize: settings.limits.maxFileSize)
    } catch {
      // A folder or file the store refuses to use is left exactly as it is.
      if error.code == .unsafeStorage { return postpone(error, timings: timings) }
      return discard(.unreadable(error), timings: timings)
    }
    timings[.read] = clock.now - readStart
    guard let bytes else {
      removeQuietly(.inProgressMarker)
      if let discardNote {
        debug("No archive: the last one was discarded \(discardNote)")
        return RestorationReport(outcome: .discarded(discardNote), timings: timings)
      }
      debug("No state restoration archive at \(store.location)")
      return RestorationReport(outcome: .nothingSaved, timings: timings)
    }

    // Without a delegate nobody opted in: UIKit does not restore, nor run its crash guard, nor
    // touch the archive, which a later launch with a delegate can still use.
    guard delegate != nil else {
      debug("No delegate opted in to state restoration; the archive is left as it is")
      return RestorationReport(outcome: .vetoedByDelegate, timings: timings)
    }

    // The crash guard (UIKit's _doRestorationIfNecessary).
    let marker = readMarker()
    if let marker, marker.extended, !settings.developerMode {
      return discard(.crashDuringExtendedRestoration, timings: timings)
    }
    let tries = (marker?.triesLeft ?? InProgressMarker.initialTries) - 1
    if tries <= 0, !settings.developerMode {
      return discard(
        .crashesDuringRestoration(launches: InProgressMarker.initialTries), timings: timings)
    }
    // Armed before any app code runs. A launch whose attempt cannot be recorded does not
    // restore: if it crashed, the next launch would not know, and a crash loop would never end.
    let newMarker = InProgressMarker(
      triesLeft: marker == nil ? InProgressMarker.initialTries : tries, extended: false)
    do {
      try store.write(newMarker.encoded(), to: .inProgressMarker)
    } catch {
      return postpone(error, timings: timings)
    }
    pendingRestorations = 1
    restoredArchiveOnDisk = true

    phaseObserver?(.decodeArchive)
    let decodeStart = clock.now
    let archive: CheckedArchive
    do {
      archive = try CheckedArchive(
        bytes, limits: settings.limits, migrations: registry.migrations,
        appVersion: applicationInfo.bundleVersion)
    } catch {
      let located = error.file == nil ? error.inFile(archiveLocation) : error
      pendingRestorations = 0
      return discard(.unreadable(located), timings: timings)
    }
    timings[.decodeArchive] = clock.now - decodeStart
    let current = RestorationArchive.Version.current
    debug(
      "State restoration archive was saved with major version \(archive.version.major), minor version \(archive.version.minor). Current major version \(current.major), current minor version \(current.minor)."
    )

    let pass = RestorationPass(
      archive: archive,
      registry: registry,
      delegate: delegate,
      applicationContext: applicationContext,
      classNames: classNames,
      debug: settings.debugLogging ? { [weak self] in self?.debug($0) } : nil,
      warn: { [weak self] in self?.warn($0) }
    )
    guard let delegate, delegate.shouldRestoreApplicationState(with: pass.topLevelDecoder) else {
      debug("The delegate declined to restore application state")
      finishRestoration()
      return RestorationReport(outcome: .vetoedByDelegate, timings: timings)
    }
    if settings.debugLogging {
      debug(
        "Root restoration identifier paths are (\n    \(archive.paths.joined(separator: ",\n    "))\n)"
      )
      let map = archive.paths.indices.compactMap { record in
        archive.types[archive.typeOfRecord[record]].restorationClassName.map {
          "    \"\(archive.paths[record])\" = \($0);"
        }
      }
      debug("Restoration Class map: {\n\(map.joined(separator: "\n"))\n}")
    }

    func run(_ phase: RestorationReport.Phase, _ body: () -> Void) {
      phaseObserver?(phase)
      let start = clock.now
      body()
      timings[phase] = clock.now - start
    }
    run(.locateObjects) {
      pass.mapExistingObjects(roots: roots)
      pass.locateObjects()
    }
    run(.decodeState) { pass.decodeObjects() }
    run(.finish) { pass.finish() }
    classNames = pass.classNames

    finishRestoration()
    return RestorationReport(
      outcome: .restored, entries: pass.entries, timings: timings, warnings: pass.warnings)
  }

  /// Declares that restoration goes on asynchronously (UIKit's `extendStateRestoration()`).
  ///
  /// Call it during restoration; until the matching ``completeStateRestoration()`` the crash
  /// guard stays armed, and a crash in between discards the archive at the next launch.
  public func extendStateRestoration() {
    guard pendingRestorations > 0 else {
      warn("extendStateRestoration() called while no restoration is in progress; ignored")
      return
    }
    pendingRestorations += 1
    writeQuietly(
      InProgressMarker(triesLeft: InProgressMarker.initialTries - 1, extended: true).encoded(),
      to: .inProgressMarker, "Warning: Unable to create restoration in progress marker file")
    debug("Restoration extended (\(pendingRestorations) pending)")
  }

  /// Ends an asynchronous extension of restoration (UIKit's `completeStateRestoration()`).
  public func completeStateRestoration() {
    guard pendingRestorations > 0 else {
      warn("completeStateRestoration() called more often than extendStateRestoration()")
      return
    }
    finishRestoration()
  }

  /// Whether a restoration is running or extended.
  public var isRestorationInProgress: Bool { pendingRestorations > 0 }

  private func finishRestoration() {
    pendingRestorations = max(0, pendingRestorations - 1)
    guard pendingRestorations == 0 else { return }
    if restoredArchiveOnDisk, !settings.developerMode {
      // UIKit discards the archive once the app has finished launching; a new one is written at
      // the next move to the background.
      removeQuietly(.inProgressMarker, .archive)
    } else {
      removeQuietly(.inProgressMarker)
    }
    restoredArchiveOnDisk = false
  }

  // MARK: - Discarding

  /// Records that the user force-quit the app: the archive is deleted, unless developer mode is
  /// on, and the next launch reports why it started fresh.
  public func applicationWasForceQuit() {
    guard !settings.developerMode else {
      debug("Force quit: archive kept (developer mode)")
      return
    }
    removeQuietly(.archive, .inProgressMarker, .snapshot, .sceneActivity)
    writeQuietly(
      Array("forceQuit".utf8), to: .discardNote, "Unable to record why the archive was discarded")
    debug("Force quit: archive deleted")
  }

  /// Deletes the archive and the crash-guard marker, whatever the settings.
  public func deleteArchive() {
    removeQuietly(.archive, .inProgressMarker, .snapshot, .sceneActivity, .discardNote)
  }

  private func discard(
    _ reason: RestorationReport.DiscardReason,
    timings: [RestorationReport.Phase: Duration]
  ) -> RestorationReport {
    if settings.developerMode {
      removeQuietly(.inProgressMarker)
      warn("State restoration archive not restored \(reason); kept (developer mode)")
    } else {
      removeQuietly(.inProgressMarker, .archive, .snapshot, .sceneActivity)
      warn("State restoration archive discarded \(reason)")
    }
    return RestorationReport(outcome: .discarded(reason), timings: timings)
  }

  /// Starts fresh without touching the archive, which a later launch can still restore.
  private func postpone(
    _ error: RestorationError,
    timings: [RestorationReport.Phase: Duration]
  ) -> RestorationReport {
    warn(
      "State restoration postponed: \(error); the app starts fresh and the archive is kept for a later launch"
    )
    return RestorationReport(outcome: .postponed(error), timings: timings)
  }

  private var archiveLocation: String { store.path(of: .archive) }

  // MARK: - Store helpers

  /// The crash guard's marker; one that cannot be read, or is not exactly one this engine
  /// writes, counts as the marker of one launch that crashed during restoration.
  private func readMarker() -> InProgressMarker? {
    let bytes: [UInt8]?
    do {
      bytes = try store.read(.inProgressMarker, maxSize: 4096)
    } catch {
      warn("The crash guard's marker cannot be read (\(error)); counted as one crash")
      return .standIn
    }
    guard let bytes else { return nil }
    guard let marker = InProgressMarker(bytes: bytes) else {
      warn("The crash guard's marker is not one this engine writes; counted as one crash")
      return .standIn
    }
    return marker
  }

  private func writeQuietly(_ bytes: [UInt8], to item: ArchiveStoreItem, _ failure: String) {
    do {
      try store.write(bytes, to: item)
    } catch {
      warn("\(failure): \(error)")
    }
  }

  private func readDiscardNote() -> RestorationReport.DiscardReason? {
    guard let bytes = try? store.read(.discardNote, maxSize: 256) else { return nil }
    removeQuietly(.discardNote)
    return String(decoding: bytes, as: UTF8.self) == "forceQuit" ? .forceQuit : nil
  }

  private func removeQuietly(_ items: ArchiveStoreItem...) {
    do {
      try store.remove(items)
    } catch {
      warn("Unable to remove \(items.map(\.rawValue).joined(separator: ", ")): \(error)")
    }
  }

  static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
  }
}
