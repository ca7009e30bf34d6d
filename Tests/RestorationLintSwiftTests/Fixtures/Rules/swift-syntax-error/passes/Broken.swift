// swift-format-ignore-file
import UIKit

final class BrokenViewController: UIViewController {
  override func viewDidLoad() {
    super.viewDidLoad()
  }
}
