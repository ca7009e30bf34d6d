// swift-format-ignore-file
import UIKit

/// Searches the notes; the search is offered to Handoff and Spotlight.
final class SearchViewController: UIViewController, UISearchResultsUpdating {
  func updateSearchResults(for searchController: UISearchController) {
    let activity = NSUserActivity(activityType: ActivityType.searching)
    activity.title = searchController.searchBar.text
    activity.isEligibleForSearch = true
    userActivity = activity
  }
}
