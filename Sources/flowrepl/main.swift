print("flowrepl")
