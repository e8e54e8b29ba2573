"""VASSAL module compiler: engine encodings (codec), traits, buildFile elements and archives."""
