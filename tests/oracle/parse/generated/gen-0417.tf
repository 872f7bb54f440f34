x1 = !!<<EOT
xy
EOT
 /* c
 */
