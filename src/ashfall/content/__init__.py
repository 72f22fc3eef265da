"""Content: validated stat blocks, weapons, armor and shields, and the library that loads them."""
