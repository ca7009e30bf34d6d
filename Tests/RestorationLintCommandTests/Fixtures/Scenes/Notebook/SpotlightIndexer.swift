// swift-format-ignore-file
import CoreSpotlight
import UIKit

/// Offers each note to Spotlight, with a type of its own in every build of the app.
enum SpotlightIndexer {
  static func activity(for note: Note) -> NSUserActivity {
    let activity = NSUserActivity(activityType: Bundle.main.bundleIdentifier! + ".reading")
    activity.title = note.title
    activity.isEligibleForSearch = true
    activity.contentAttributeSet = CSSearchableItemAttributeSet(contentType: .text)
    return activity
  }
}
