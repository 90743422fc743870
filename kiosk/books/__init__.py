"""Data taken from the public-domain books in shared/books, with citations."""
