x = a.é
