import GroceryDudeCore

print(appTitle)
