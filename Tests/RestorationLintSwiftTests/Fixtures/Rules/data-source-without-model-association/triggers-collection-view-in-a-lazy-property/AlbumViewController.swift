// swift-format-ignore-file
import UIKit

/// An album: a collection view built in a lazy property, restorable, whose items come back by
/// index.
final class AlbumViewController: UIViewController, UICollectionViewDataSource {
  private var photos: [String] = []

  private lazy var grid: UICollectionView = {
    let layout = UICollectionViewFlowLayout()
    let collection = UICollectionView(frame: .zero, collectionViewLayout: layout)
    collection.restorationIdentifier = "AlbumGrid"
    collection.dataSource = self
    return collection
  }()

  override func loadView() {
    view = grid
  }

  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
    photos.count
  }

  func collectionView(
    _ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath
  ) -> UICollectionViewCell {
    collectionView.dequeueReusableCell(withReuseIdentifier: "Photo", for: indexPath)
  }
}
