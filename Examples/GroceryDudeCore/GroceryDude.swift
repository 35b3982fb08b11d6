import FetchedResultsKit

/// The Grocery Dude demo's name, as its title bar shows it.
public let appTitle = "Grocery Dude"
