"""Cosmic Celebrity Cricket (Flungo) by mail: competitions, naming, standing orders, turns."""
