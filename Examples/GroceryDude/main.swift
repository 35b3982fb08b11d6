#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GroceryDudeCore

exit(await GroceryDudeCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
