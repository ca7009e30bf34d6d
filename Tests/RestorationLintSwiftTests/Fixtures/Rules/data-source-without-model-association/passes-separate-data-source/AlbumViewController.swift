// swift-format-ignore-file
import UIKit

/// An album whose data source is an object of its own, which restores items by photo.
final class AlbumViewController: UIViewController {
  private let photos = PhotoDataSource()

  private lazy var grid: UICollectionView = {
    let collection = UICollectionView(
      frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
    collection.restorationIdentifier = "AlbumGrid"
    collection.dataSource = photos
    return collection
  }()

  override func loadView() {
    view = grid
  }
}

/// The album's photos, identified by name.
final class PhotoDataSource: NSObject, UICollectionViewDataSource, UIDataSourceModelAssociation {
  var names: [String] = []

  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
    names.count
  }

  func collectionView(
    _ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath
  ) -> UICollectionViewCell {
    collectionView.dequeueReusableCell(withReuseIdentifier: "Photo", for: indexPath)
  }

  func modelIdentifierForElement(at idx: IndexPath, in view: UIView) -> String? {
    names.indices.contains(idx.item) ? names[idx.item] : nil
  }

  func indexPathForElement(withModelIdentifier identifier: String, in view: UIView) -> IndexPath? {
    names.firstIndex(of: identifier).map { IndexPath(item: $0, section: 0) }
  }
}
