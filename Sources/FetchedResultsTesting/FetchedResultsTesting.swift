@_exported import ListUpdates
