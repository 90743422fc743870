"""Runs at every boot of the Pico: start the table firmware."""

import board

board.run()
