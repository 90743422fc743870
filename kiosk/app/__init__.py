"""The table application: one stream of events that the display, speech, lights and store follow."""
