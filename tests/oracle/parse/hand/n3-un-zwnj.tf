a‌b = 1
