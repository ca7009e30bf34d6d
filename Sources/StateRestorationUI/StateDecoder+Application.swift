public import StateRestoration

extension StateDecoder {
  /// The application being restored, for restoration classes that need the app's data.
  public var application: Application? { applicationContext as? Application }
}
