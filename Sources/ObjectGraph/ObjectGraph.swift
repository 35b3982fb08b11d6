// The ObjectGraph module: objects, relationships, commits and change publication.
