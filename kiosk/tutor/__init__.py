"""The tutor: lessons from the classic books, and a coach that rates every play.

``kiosk.tutor.coach`` rates a play by the equity it gives up (GNU Backgammon's
evaluation where it is available, a built-in evaluation elsewhere) and explains
the rating with the tactics the books teach (``kiosk.tutor.features``).
"""
