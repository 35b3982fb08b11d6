import ObjectGraph
import Testing
