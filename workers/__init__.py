"""Thin workers: they fetch NNTP and run the window; everything else is a
call of a stored function in schema `voyager`."""
