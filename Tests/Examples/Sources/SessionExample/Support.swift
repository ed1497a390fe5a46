// What the README's example leaves to its reader: the work that Cancel stops.
func cancelTheUpdate() {}
