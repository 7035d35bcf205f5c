Console.WriteLine("JsonRpc.Router: the routing server arrives with the JsonRpc.Server issue.");
