"""Pixels to observations: locate and rectify the grid, read cell colours, detect motion.

numpy + OpenCV only; imports nothing else of tilewatch. Functions take arrays and
return arrays (BGR uint8 unless a docstring says otherwise) and keep no hidden state."""
