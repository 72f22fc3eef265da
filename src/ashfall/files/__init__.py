"""Reading files: YAML with line marks, and problems that name the file, field path and line."""
