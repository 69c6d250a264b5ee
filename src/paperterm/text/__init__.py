"""Text as paperterm reads and shows it: cleaning, TeX to Unicode, word matching, sort keys."""
