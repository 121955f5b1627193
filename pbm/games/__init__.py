"""The games pbm runs by mail, each a package behind one small protocol."""
