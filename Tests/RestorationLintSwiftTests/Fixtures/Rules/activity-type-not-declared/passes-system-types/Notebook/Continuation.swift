// swift-format-ignore-file
import CoreSpotlight
import Intents
import UIKit

/// Opens what Safari, Spotlight and Siri hand over.
final class Continuation {
  func activity(for url: URL) -> NSUserActivity {
    let activity = NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)
    activity.webpageURL = url
    return activity
  }

  func donation(for intent: INAddTasksIntent) -> NSUserActivity {
    NSUserActivity(activityType: String(describing: INAddTasksIntent.self))
  }

  /// A custom intent of the app's intent definition file, by its class name.
  func reorder() -> NSUserActivity {
    NSUserActivity(activityType: "ReorderNoteIntent")
  }

  func isSearchResult(_ activity: NSUserActivity) -> Bool {
    activity.activityType == CSSearchableItemActionType
      || activity.activityType == CSQueryContinuationActionType
  }
}
