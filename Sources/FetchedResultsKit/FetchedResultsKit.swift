// The umbrella module: one import for the whole library.
@_exported import FetchedResults
@_exported import GraphStore
@_exported import ListUpdates
@_exported import ObjectGraph
