null =
!1
