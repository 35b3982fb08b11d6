import FetchedResults
import Testing
