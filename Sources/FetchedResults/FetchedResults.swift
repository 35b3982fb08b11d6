@_exported import ListUpdates
@_exported import ObjectGraph
