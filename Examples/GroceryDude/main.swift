import FetchedResultsKit

print("Grocery Dude")
